import * as z from 'zod';
import { orderedTimeRange, timeBound } from '#lib/contract/fields.ts';
import { pageQuery } from '#lib/contract/page-query.ts';
import { TICKET_STATUSES, TICKET_TYPES } from './history.ts';

export const listTicketsQuery = pageQuery().extend({
  type: z.enum(TICKET_TYPES).optional(),
  status: z.enum(TICKET_STATUSES).optional(),
});
export type ListTicketsInput = z.output<typeof listTicketsQuery>;

export const listHistoryQuery = orderedTimeRange(
  pageQuery().extend({
    ticketId: z.string().trim().min(1, 'must not be empty').max(64).optional(),
    from: timeBound('start').describe('ISO 8601 date or date-time; a date means its start (UTC)').optional(),
    to: timeBound('end').describe('ISO 8601 date or date-time, not before from; a date means its end (UTC)').optional(),
  }),
);
export type ListHistoryInput = z.output<typeof listHistoryQuery>;
