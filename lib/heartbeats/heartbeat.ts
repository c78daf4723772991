import type { IncidentPriority } from '#lib/incidents/incident.ts';
import type { SignalSeverity } from '#lib/signals/signal.ts';

/** The shortest and longest interval a heartbeat may expect pings at: a minute (the sweep's own step) to a week. */
export const MIN_INTERVAL_SECONDS = 60;
export const MAX_INTERVAL_SECONDS = 7 * 24 * 3600;
/** Grace beyond the interval: at most a week as well. */
export const MAX_GRACE_SECONDS = 7 * 24 * 3600;

export const HEARTBEAT_STATES = ['UP', 'LATE', 'DOWN', 'PAUSED'] as const;
export type HeartbeatState = (typeof HEARTBEAT_STATES)[number];

/** What the signals of every heartbeat say they come from; a correlation rule can match on it. */
export const HEARTBEAT_SOURCE = 'heartbeat';

export interface Heartbeat {
  id: string;
  name: string;
  intervalSeconds: number;
  graceSeconds: number;
  serviceId: string | null;
  priority: IncidentPriority;
  paused: boolean;
  /** The secret part of the ping URL: the ping's only credential. */
  secret: string;
  lastPingAt: string | null;
  /** Set by the sweep when it raised the missed heartbeat's signal, cleared when a ping ended it. */
  downSince: string | null;
  /** The signal the sweep raised, whose incident a later ping resolves. */
  downSignalId: string | null;
  createdAt: string;
  updatedAt: string;
}

const SECOND = 1000;

/** When a ping is next expected: an interval after the last ping, or after the heartbeat began to wait. */
export const nextPingDueAt = (heartbeat: Pick<Heartbeat, 'lastPingAt' | 'createdAt' | 'intervalSeconds'>): Date =>
  new Date(Date.parse(heartbeat.lastPingAt ?? heartbeat.createdAt) + heartbeat.intervalSeconds * SECOND);

/** When a heartbeat with no ping goes DOWN: its due time plus the grace. */
export const downAt = (heartbeat: Pick<Heartbeat, 'lastPingAt' | 'createdAt' | 'intervalSeconds' | 'graceSeconds'>) =>
  new Date(nextPingDueAt(heartbeat).getTime() + heartbeat.graceSeconds * SECOND);

/** The sweep raised it, and no ping came since. */
const markedDown = ({ downSince, lastPingAt }: Pick<Heartbeat, 'downSince' | 'lastPingAt'>): boolean =>
  downSince !== null && (lastPingAt === null || lastPingAt <= downSince);

/**
 * The state at `now`: DOWN while the outage the sweep raised lasts; else from the times, so a list is
 * current whenever the sweep ran last: UP until the ping is due, LATE through the grace, DOWN after it
 * (the due time and its end inclusive).
 */
export const stateAt = (heartbeat: Heartbeat, now: Date): HeartbeatState => {
  if (heartbeat.paused) return 'PAUSED';
  if (markedDown(heartbeat)) return 'DOWN';
  if (now.getTime() <= nextPingDueAt(heartbeat).getTime()) return 'UP';
  return now.getTime() <= downAt(heartbeat).getTime() ? 'LATE' : 'DOWN';
};

/**
 * A missed heartbeat's signal severity: what correlation decides on. HIGH and CRITICAL heartbeats raise a
 * HIGH signal (the default rules open an incident for it at once); MEDIUM and LOW ones raise theirs.
 */
export const severityOf = (priority: IncidentPriority): SignalSeverity => (priority === 'CRITICAL' ? 'HIGH' : priority);

/** Heartbeat ids are ULIDs; any other path value names no heartbeat and is answered without a read. */
export const isHeartbeatId = (value: string): boolean => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value);
