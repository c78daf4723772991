import { log } from '#lib/log/logger.ts';
import type { AccountScope, Scope } from '#lib/identity/scope.ts';
import { INCIDENT_PRIORITIES, type Incident, type IncidentWrite } from './incident.ts';
import type { NotificationEvent } from './notification-events.ts';
import type { IncidentNotification } from './notification-message.ts';

/** The events that page the escalation contact as well, and that silent hours mute only for LOW and MEDIUM. */
export const ESCALATION_EVENTS: readonly NotificationEvent[] = [
  'ESCALATION',
  'RESPONSE_BREACHED',
  'RESOLVE_BREACHED',
  'ESCALATE_NOW',
];

const rank = (incident: Incident): number => INCIDENT_PRIORITIES.indexOf(incident.priority);

/**
 * What a write means to the people on call: an incident created (opened), taken on (acknowledged: it gained
 * `acknowledgedAt`, unless the same write resolved it), its priority raised, or its impact over
 * (resolved: it gained `resolvedAt`). Anything else notifies no one.
 */
const notificationsOf = (
  workspaceId: string,
  before: Incident | undefined,
  after: Incident | undefined,
): IncidentNotification[] => {
  if (!after) return [];
  const base = { workspaceId, incidentId: after.id, at: after.updatedAt, priority: after.priority };
  if (!before) return after.resolvedAt ? [] : [{ ...base, event: 'OPENED' }];
  const events: IncidentNotification[] = [];
  if (rank(after) > rank(before) && !after.resolvedAt) {
    events.push({ ...base, event: 'PRIORITY_RAISED', fromPriority: before.priority });
  }
  if (after.acknowledgedAt && !before.acknowledgedAt && !after.resolvedAt) {
    events.push({ ...base, event: 'ACKNOWLEDGED' });
  }
  if (after.resolvedAt && !before.resolvedAt) events.push({ ...base, event: 'RESOLVED' });
  return events;
};

/**
 * Hands events to the `notifications` queue, for the notification worker. It never throws: what caused
 * them is written already, and a lost message costs a notification, logged here, not the caller's work.
 */
export const queueIncidentEvents = async ({ ports }: AccountScope, events: IncidentNotification[]): Promise<void> => {
  if (events.length === 0) return;
  try {
    await ports.queue.send('notifications', events);
  } catch (error) {
    log.error('incident notifications not queued', { incidentId: events[0]?.incidentId, error });
  }
};

/**
 * Hands the write's notifications to the `notifications` queue, for the notification worker. It never
 * throws and never waits on a receiver: the incident is written already, and a lost message costs a
 * notification, logged here, not the request.
 */
export const queueNotifications = async (scope: Scope, { before, after }: IncidentWrite): Promise<void> => {
  await queueIncidentEvents(scope, notificationsOf(scope.workspaceId, before, after));
};
