import { localDate, zonedTimeToUtc } from '#lib/contract/zoned-time.ts';

/**
 * Rotation math for one schedule layer: pure functions of the layer and a time window, so the fake-clock
 * scenarios test them directly. Daily and weekly handoffs fall on the wall clock (`handoffTime` in the
 * schedule's zone, whatever the clocks did); custom rotations are fixed spans of elapsed hours.
 */
type RotationType = 'daily' | 'weekly' | 'custom';

/** A working-hours window: on `daysOfWeek` (1 = Monday), from `startTime` to `endTime`; an earlier end spans midnight. */
interface LayerRestriction {
  daysOfWeek: number[];
  startTime: string;
  endTime: string;
}

export interface ScheduleLayer {
  /** ISO 8601 instant the layer begins; its first member is on call from here to the first handoff. */
  start: string;
  rotationType: RotationType;
  rotationHours?: number;
  handoffTime: string;
  members: string[];
  restrictions?: LayerRestriction;
}

/** A span of time in epoch milliseconds, `start` inclusive, `end` exclusive. */
export interface Span {
  start: number;
  end: number;
}

export interface LayerShift extends Span {
  userId: string;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/**
 * The instant of the layer's `index`-th handoff (index 0 is the handoff time on the start's own date; the
 * first real handoff is index 1, one period later, so the first member's turn is never a stub).
 */
const handoffAt = (layer: ScheduleLayer, timeZone: string, index: number): number => {
  const startDate = localDate(Date.parse(layer.start), timeZone);
  if (layer.rotationType === 'custom') {
    const anchor = zonedTimeToUtc(startDate, layer.handoffTime, timeZone).getTime();
    return anchor + index * (layer.rotationHours ?? 24) * HOUR_MS;
  }
  const periodDays = layer.rotationType === 'daily' ? 1 : 7;
  return zonedTimeToUtc(addDays(startDate, index * periodDays), layer.handoffTime, timeZone).getTime();
};

/** The index of the last handoff at or before `instant` (0 while still in the first turn). */
const turnAt = (layer: ScheduleLayer, timeZone: string, instant: number): number => {
  const start = Date.parse(layer.start);
  let guess: number;
  if (layer.rotationType === 'custom') {
    guess = Math.floor((instant - handoffAt(layer, timeZone, 0)) / ((layer.rotationHours ?? 24) * HOUR_MS));
  } else {
    const periodDays = layer.rotationType === 'daily' ? 1 : 7;
    guess = Math.floor(daysBetween(localDate(start, timeZone), localDate(instant, timeZone)) / periodDays);
  }
  let turn = Math.max(0, guess);
  while (turn > 0 && handoffAt(layer, timeZone, turn) > instant) turn -= 1;
  while (handoffAt(layer, timeZone, turn + 1) <= instant) turn += 1;
  return turn;
};

/** The layer's rotation turns overlapping a window, before restrictions; nothing before the layer starts. */
export const rotationShifts = (layer: ScheduleLayer, timeZone: string, window: Span): LayerShift[] => {
  const layerStart = Date.parse(layer.start);
  if (layer.members.length === 0 || window.end <= layerStart) return [];
  const shifts: LayerShift[] = [];
  let turn = turnAt(layer, timeZone, Math.max(window.start, layerStart));
  while (true) {
    const start = turn === 0 ? layerStart : handoffAt(layer, timeZone, turn);
    if (start >= window.end) break;
    const end = handoffAt(layer, timeZone, turn + 1);
    const userId = layer.members[turn % layer.members.length] as string;
    shifts.push({ userId, start: Math.max(start, window.start), end: Math.min(end, window.end) });
    turn += 1;
  }
  return shifts;
};

/** ISO day of week (1 = Monday) of a `YYYY-MM-DD` date. */
const isoDayOfWeek = (date: string): number => {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
};

/** The spans a restriction allows inside a window, each window day's start time in the schedule's zone. */
const restrictionSpans = (restriction: LayerRestriction, timeZone: string, window: Span): Span[] => {
  const spans: Span[] = [];
  const first = addDays(localDate(window.start, timeZone), -1);
  const last = localDate(window.end, timeZone);
  for (let date = first; date <= last; date = addDays(date, 1)) {
    if (!restriction.daysOfWeek.includes(isoDayOfWeek(date))) continue;
    const start = zonedTimeToUtc(date, restriction.startTime, timeZone).getTime();
    const endDate = restriction.endTime <= restriction.startTime ? addDays(date, 1) : date;
    const end = zonedTimeToUtc(endDate, restriction.endTime, timeZone).getTime();
    const clipped = { start: Math.max(start, window.start), end: Math.min(end, window.end) };
    if (clipped.start < clipped.end) spans.push(clipped);
  }
  return spans;
};

/** The layer's shifts in a window: its rotation, cut to its restriction's spans when it has one. */
export const layerShifts = (layer: ScheduleLayer, timeZone: string, window: Span): LayerShift[] => {
  const shifts = rotationShifts(layer, timeZone, window);
  if (!layer.restrictions) return shifts;
  const allowed = restrictionSpans(layer.restrictions, timeZone, window);
  return shifts.flatMap((shift) =>
    allowed
      .map((span) => ({
        userId: shift.userId,
        start: Math.max(span.start, shift.start),
        end: Math.min(span.end, shift.end),
      }))
      .filter((piece) => piece.start < piece.end),
  );
};
