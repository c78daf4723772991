import * as z from 'zod/mini';
import { orderedTimeRange, timeBound } from '#lib/contract/fields.ts';
import { pageQuery } from '#lib/contract/page-query.ts';
import { TICKET_STATUSES, TICKET_TYPES } from './history.ts';

export const listTicketsQuery = z.extend(pageQuery(), {
  type: z.optional(z.enum(TICKET_TYPES)),
  status: z.optional(z.enum(TICKET_STATUSES)),
});
export type ListTicketsInput = z.output<typeof listTicketsQuery>;

export const listHistoryQuery = orderedTimeRange(
  z.extend(pageQuery(), {
    ticketId: z.optional(z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(64))),
    from: z.optional(timeBound('start').check(z.describe('ISO 8601 date or date-time; a date means its start (UTC)'))),
    to: z.optional(
      timeBound('end').check(z.describe('ISO 8601 date or date-time, not before from; a date means its end (UTC)')),
    ),
  }),
);
export type ListHistoryInput = z.output<typeof listHistoryQuery>;
