import { log } from '#lib/log/logger.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { INCIDENT_PRIORITIES, type Incident, type IncidentWrite, type IncidentPriority } from './incident.ts';

export const NOTIFICATION_EVENTS = ['OPENED', 'ESCALATED', 'RESOLVED'] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/**
 * The body of a `notifications` queue message: which incident, what happened to it, and when. `at` is the
 * write's `updatedAt`: with the event it names this occurrence, so a redelivery sends nothing twice.
 * `priority` is the incident's at the event, since the worker may read it after later changes;
 * `fromPriority` is the one an escalation raised.
 */
export interface IncidentNotification {
  workspaceId: string;
  incidentId: string;
  event: NotificationEvent;
  at: string;
  priority: IncidentPriority;
  fromPriority?: IncidentPriority;
}

const rank = (incident: Incident): number => INCIDENT_PRIORITIES.indexOf(incident.priority);

/**
 * What a write means to the people on call: an incident created (opened), its priority raised
 * (escalated), or its impact over (resolved: it gained `resolvedAt`). Anything else notifies no one.
 */
export const notificationsOf = (
  workspaceId: string,
  before: Incident | undefined,
  after: Incident | undefined,
): IncidentNotification[] => {
  if (!after) return [];
  const base = { workspaceId, incidentId: after.id, at: after.updatedAt, priority: after.priority };
  if (!before) return after.resolvedAt ? [] : [{ ...base, event: 'OPENED' }];
  const events: IncidentNotification[] = [];
  if (rank(after) > rank(before) && !after.resolvedAt) {
    events.push({ ...base, event: 'ESCALATED', fromPriority: before.priority });
  }
  if (after.resolvedAt && !before.resolvedAt) events.push({ ...base, event: 'RESOLVED' });
  return events;
};

/**
 * Hands the write's notifications to the `notifications` queue, for the notification worker. It never
 * throws and never waits on a receiver: the incident is written already, and a lost message costs a
 * notification, logged here, not the request.
 */
export const queueNotifications = async (
  { ports, workspaceId }: Scope,
  { before, after }: IncidentWrite,
): Promise<void> => {
  const events = notificationsOf(workspaceId, before, after);
  if (events.length === 0) return;
  try {
    await ports.queue.send('notifications', events);
  } catch (error) {
    log.error('incident notifications not queued', { incidentId: after?.id, error });
  }
};
