/**
 * `ACKNOWLEDGED`: someone took the incident on; the others paged are told who.
 * `PRIORITY_RAISED`: the incident's priority went up. `ESCALATION`: nobody acknowledged the incident by its
 * response deadline or a policy level's delay, so the next level is paged (docs/escalation.md, docs/on-call.md),
 * as the ticket's `ESCALATION` history event records. `RESPONSE_BREACHED` / `RESOLVE_BREACHED`: an SLA target was
 * missed. `ESCALATE_NOW`: someone paged the next level by hand.
 */
export const NOTIFICATION_EVENTS = [
  'OPENED',
  'ACKNOWLEDGED',
  'PRIORITY_RAISED',
  'RESOLVED',
  'ESCALATION',
  'RESPONSE_BREACHED',
  'RESOLVE_BREACHED',
  'ESCALATE_NOW',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/**
 * The names two events had until 2026-11-29, when `ESCALATED` meant a raised priority and an escalation was
 * `UNACKNOWLEDGED`. A message queued, a delivery stored or an acknowledge link sent before then still reads, under
 * the name its event has now (docs/decisions.md).
 */
export const FORMER_EVENT_NAMES = {
  ESCALATED: 'PRIORITY_RAISED',
  UNACKNOWLEDGED: 'ESCALATION',
} as const satisfies Record<string, NotificationEvent>;
export type FormerEventName = keyof typeof FORMER_EVENT_NAMES;

const isFormerName = (name: string): name is FormerEventName => Object.hasOwn(FORMER_EVENT_NAMES, name);

/** The event a stored or queued name stands for: itself, or the event a former name became. */
export const notificationEventNamed = (name: string): NotificationEvent =>
  isFormerName(name) ? FORMER_EVENT_NAMES[name] : (name as NotificationEvent);
