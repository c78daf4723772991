import * as z from 'zod';
import { pageQuery } from '#lib/http/pagination.ts';
import { INCIDENT_STATUSES } from '#lib/incidents/incident.ts';
import { PROBLEM_STATUSES } from '#lib/problems/problem.ts';
import { TICKET_TYPES } from './history.ts';

/**
 * Every status a ticket can have: incidents' and problems' (the spec's). Change statuses join this list
 * with the change records, whose module owns them.
 */
export const TICKET_STATUSES = [...new Set([...INCIDENT_STATUSES, ...PROBLEM_STATUSES])] as [string, ...string[]];

export const listTicketsQuery = pageQuery().extend({
  type: z.enum(TICKET_TYPES).optional(),
  status: z.enum(TICKET_STATUSES).optional(),
});
export type ListTicketsInput = z.output<typeof listTicketsQuery>;

const isDate = (value: string): boolean => z.iso.date().safeParse(value).success;

/**
 * A `from`/`to` bound, as for the incident list: a date-time with an offset (normalised to UTC, the form
 * history timestamps have), or a calendar date meaning the start (`from`) or end (`to`) of that UTC day.
 */
const timeBound = (edge: 'start' | 'end') =>
  z
    .string()
    .trim()
    .refine(
      (value) => isDate(value) || z.iso.datetime({ offset: true }).safeParse(value).success,
      'must be an ISO 8601 date (2024-05-01) or date-time (2024-05-01T10:00:00Z)',
    )
    .transform((value) => {
      if (!isDate(value)) return new Date(value).toISOString();
      return edge === 'start' ? `${value}T00:00:00.000Z` : `${value}T23:59:59.999Z`;
    });

export const listHistoryQuery = pageQuery()
  .extend({
    ticketId: z.string().trim().min(1, 'must not be empty').max(64).optional(),
    from: timeBound('start').describe('ISO 8601 date or date-time; a date means its start (UTC)').optional(),
    to: timeBound('end').describe('ISO 8601 date or date-time, not before from; a date means its end (UTC)').optional(),
  })
  .refine(({ from, to }) => !from || !to || from <= to, { message: 'must not be after to', path: ['from'] });
export type ListHistoryInput = z.output<typeof listHistoryQuery>;
