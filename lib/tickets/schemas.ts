import * as z from 'zod';
import { CHANGE_STATUSES } from '#lib/changes/change.ts';
import { orderedTimeRange, timeBound } from '#lib/contract/fields.ts';
import { pageQuery } from '#lib/contract/page-query.ts';
import { INCIDENT_STATUSES } from '#lib/incidents/incident.ts';
import { PROBLEM_STATUSES } from '#lib/problems/problem.ts';
import { TICKET_TYPES } from './history.ts';

/** Every status a ticket can have: incidents' and problems' (the spec's), and changes' (their deployments'). */
export const TICKET_STATUSES = [...new Set([...INCIDENT_STATUSES, ...PROBLEM_STATUSES, ...CHANGE_STATUSES])] as [
  string,
  ...string[],
];

export const listTicketsQuery = pageQuery().extend({
  type: z.enum(TICKET_TYPES).optional(),
  status: z.enum(TICKET_STATUSES).optional(),
});
export type ListTicketsInput = z.output<typeof listTicketsQuery>;


export const listHistoryQuery = orderedTimeRange(
  pageQuery()
    .extend({
      ticketId: z.string().trim().min(1, 'must not be empty').max(64).optional(),
      from: timeBound('start').describe('ISO 8601 date or date-time; a date means its start (UTC)').optional(),
      to: timeBound('end').describe('ISO 8601 date or date-time, not before from; a date means its end (UTC)').optional(),
    }),
);
export type ListHistoryInput = z.output<typeof listHistoryQuery>;
