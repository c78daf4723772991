import type { ScheduleLayer } from '#lib/on-call/rotation.ts';

/** A schedule as stored: its layers as the rotation math reads them, and the secret its calendar link names. */
export interface Schedule {
  id: string;
  name: string;
  timezone: string;
  layers: ScheduleLayer[];
  /** Part of the calendar link: a new one (a new schedule) makes every old link stop working. */
  feedSecret: string;
  createdAt: string;
  updatedAt: string;
}

export interface Override {
  id: string;
  scheduleId: string;
  userId: string;
  start: string;
  end: string;
  createdAt: string;
  /** Only on the default schedule's overrides that are the spec's assignments (default-schedule.ts). */
  source?: 'assignment';
}
