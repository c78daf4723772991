import * as z from 'zod/mini';
import { orderedTimeRange, timeBound } from '#lib/contract/fields.ts';
import { pageQuery } from '#lib/contract/page-query.ts';
import { HISTORY_EVENTS, TICKET_TYPES } from './history.ts';
import { CHANGE_STATUSES, INCIDENT_STATUSES, PROBLEM_STATUSES } from './ticket-statuses.ts';
import { nullableText } from '#lib/contract/response-fields.ts';

/** Every status a ticket can have: incidents', then problems' and changes' that incidents do not have. */
const TICKET_STATUSES = [...new Set([...INCIDENT_STATUSES, ...PROBLEM_STATUSES, ...CHANGE_STATUSES])];

export const listTicketsQuery = z.extend(pageQuery(), {
  type: z.optional(z.enum(TICKET_TYPES)),
  status: z.optional(z.enum(TICKET_STATUSES)),
});

export const listHistoryQuery = orderedTimeRange(
  z.extend(pageQuery(), {
    ticketId: z.optional(z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(64))),
    from: z.optional(timeBound('start').check(z.describe('ISO 8601 date or date-time; a date means its start (UTC)'))),
    to: z.optional(
      timeBound('end').check(z.describe('ISO 8601 date or date-time, not before from; a date means its end (UTC)')),
    ),
  }),
);

/** A ticket of any type in the unified list; `summary` is a problem's title. */
export const ticketData = z.object({
  id: z.string(),
  type: z.enum(TICKET_TYPES),
  summary: z.string(),
  priority: nullableText,
  status: z.string(),
  assignedTo: nullableText,
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** A history event (`historyView`): `from` and `to` always present, null on events without a change. */
export const historyEventData = z.object({
  id: z.string(),
  ticketId: z.string(),
  ticketType: z.enum(TICKET_TYPES),
  event: z.enum(HISTORY_EVENTS),
  from: nullableText,
  to: nullableText,
  field: z.optional(z.string()),
  actor: z.string(),
  message: z.optional(z.string()),
  timestamp: z.string(),
});
