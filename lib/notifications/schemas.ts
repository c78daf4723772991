import * as z from 'zod/mini';
import { NOTIFICATION_EVENTS } from '#lib/incidents/notification-events.ts';
import { PAGE_CHANNELS } from '#lib/incidents/incident.ts';
import { DELIVERY_STATUSES } from './delivery.ts';

const attemptSchema = z.object({
  at: z.string(),
  outcome: z.enum(DELIVERY_STATUSES),
  detail: z.optional(z.string()),
});

export const deliverySchema = z.object({
  incidentId: z.string(),
  event: z.enum(NOTIFICATION_EVENTS),
  eventAt: z.string(),
  channel: z.enum(PAGE_CHANNELS),
  recipient: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.array(attemptSchema),
  meetingUrl: z.optional(z.string()),
  acknowledgedAt: z.optional(
    z.string().check(z.describe("When this page's acknowledge link acknowledged the incident")),
  ),
  createdAt: z.string(),
  updatedAt: z.string(),
});
