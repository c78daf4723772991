import { ForbiddenError } from '#lib/http/errors.ts';
import { createGroupHandler } from '#lib/http/group-handler.ts';
import { paged } from '#lib/http/pagination.ts';
import type { Caller } from '#lib/http/route.ts';
import { tickets } from '#lib/routes/tickets.ts';
import { listTicketHistory, listTickets } from '#lib/tickets/ticket-list.ts';

/** The caller's workspace; the middlewares admit only a workspace member or a workspace's API key here. */
const workspaceOf = (caller: Caller): string => {
  if (caller.kind !== 'anonymous' && caller.workspaceId) return caller.workspaceId;
  throw new ForbiddenError('Set up or join a workspace first');
};

export const handler = createGroupHandler(tickets, {
  listTickets: async ({ query: { page, limit, type, status }, caller, runtime }) => {
    const { items, total } = await listTickets(runtime.table, workspaceOf(caller), { type, status }, { page, limit });
    return paged(items, { page, limit }, total);
  },
  listHistory: async ({ query: { page, limit, ticketId, from, to }, caller, runtime }) => {
    const { items, total } = await listTicketHistory(runtime.table, workspaceOf(caller), { ticketId, from, to }, { page, limit });
    return paged(items, { page, limit }, total);
  },
});
