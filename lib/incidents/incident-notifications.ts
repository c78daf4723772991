import { log } from '#lib/log/logger.ts';
import type { AccountScope, Scope } from '#lib/identity/scope.ts';
import { INCIDENT_PRIORITIES, type Incident, type IncidentWrite, type IncidentPriority } from './incident.ts';

/**
 * `ESCALATED`: the priority was raised. `UNACKNOWLEDGED`: an escalation, nobody acknowledged the incident by
 * its response deadline (docs/escalation.md). `RESPONSE_BREACHED` / `RESOLVE_BREACHED`: an SLA target was missed.
 */
export const NOTIFICATION_EVENTS = [
  'OPENED',
  'ESCALATED',
  'RESOLVED',
  'UNACKNOWLEDGED',
  'RESPONSE_BREACHED',
  'RESOLVE_BREACHED',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** The events that page the escalation contact as well, and that silent hours mute only for LOW and MEDIUM. */
export const ESCALATION_EVENTS: readonly NotificationEvent[] = [
  'UNACKNOWLEDGED',
  'RESPONSE_BREACHED',
  'RESOLVE_BREACHED',
];

/**
 * The body of a `notifications` queue message: which incident, what happened to it, and when. `at` is the
 * write's `updatedAt`: with the event it names this occurrence, so a redelivery sends nothing twice.
 * `priority` is the incident's at the event, since the worker may read it after later changes;
 * `fromPriority` is the one an escalation raised; `escalation` numbers an UNACKNOWLEDGED event (1, 2, ...).
 */
export interface IncidentNotification {
  workspaceId: string;
  incidentId: string;
  event: NotificationEvent;
  at: string;
  priority: IncidentPriority;
  fromPriority?: IncidentPriority;
  escalation?: number;
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
