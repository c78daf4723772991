import * as z from 'zod/mini';
import { INCIDENT_PRIORITIES } from './incident.ts';
import {
  FORMER_EVENT_NAMES,
  NOTIFICATION_EVENTS,
  notificationEventNamed,
  type FormerEventName,
  type NotificationEvent,
} from './notification-events.ts';

/**
 * The body of a `notifications` queue message, which the writers of incidents send and the notification worker
 * checks as it reads it: which incident, what happened to it, and when. `at` is the write's `updatedAt`: with
 * the event it names this occurrence, so a redelivery sends nothing twice. `priority` is the incident's at the
 * event, since the worker may read it after later changes; `fromPriority` is the one a raised priority was raised from;
 * `escalation` numbers an ESCALATION event (1, 2, ...); `policyId` and `levels` name the escalation policy and
 * the levels (1-based) a page of it reaches, absent for the workspace's default escalation. Kept apart from the writers' code, whose cold starts
 * need its type only.
 */
const incidentNotification = z.object({
  workspaceId: z.string().check(z.minLength(1)),
  incidentId: z.string().check(z.minLength(1)),
  event: z.pipe(
    z.enum([...NOTIFICATION_EVENTS, ...(Object.keys(FORMER_EVENT_NAMES) as FormerEventName[])]),
    z.transform((name: NotificationEvent | FormerEventName) => notificationEventNamed(name)),
  ),
  at: z.string(),
  priority: z.enum(INCIDENT_PRIORITIES),
  fromPriority: z.optional(z.enum(INCIDENT_PRIORITIES)),
  escalation: z.optional(z.number().check(z.int(), z.gte(1))),
  policyId: z.optional(z.string()),
  levels: z.optional(z.array(z.number().check(z.int(), z.gte(1)))),
});

export type IncidentNotification = z.output<typeof incidentNotification>;

/** The message of a queue record; a body that is not one throws, so the record ends in the dead-letter queue. */
export const parseIncidentNotification = (body: string): IncidentNotification =>
  incidentNotification.parse(JSON.parse(body));
