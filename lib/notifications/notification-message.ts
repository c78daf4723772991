import * as z from 'zod/mini';
import { INCIDENT_PRIORITIES } from '#lib/incidents/incident.ts';
import { NOTIFICATION_EVENTS, type IncidentNotification } from '#lib/incidents/incident-notifications.ts';

/** What the writers of incidents put on the `notifications` queue, checked where it is read. */
const incidentNotification = z.object({
  workspaceId: z.string().check(z.minLength(1)),
  incidentId: z.string().check(z.minLength(1)),
  event: z.enum(NOTIFICATION_EVENTS),
  at: z.string(),
  priority: z.enum(INCIDENT_PRIORITIES),
  fromPriority: z.optional(z.enum(INCIDENT_PRIORITIES)),
  escalation: z.optional(z.number().check(z.int(), z.gte(1))),
});

/** The message of a queue record; a body that is not one throws, so the record ends in the dead-letter queue. */
export const parseIncidentNotification = (body: string): IncidentNotification =>
  incidentNotification.parse(JSON.parse(body));
