import { createGroupHandler } from '#lib/app/group-handler.ts';
import { paged } from '#lib/http/pagination.ts';
import { tickets } from '#lib/routes/tickets.ts';
import { listTicketHistory, listTickets } from '#lib/tickets/ticket-list.ts';

export const handler = createGroupHandler(tickets, {
  listTickets: async ({ query: { page, limit, type, status }, workspaceId, runtime }) => {
    const { items, total } = await listTickets(runtime.table, workspaceId, { type, status }, { page, limit });
    return paged(items, { page, limit }, total);
  },
  listHistory: async ({ query: { page, limit, ticketId, from, to }, workspaceId, runtime }) => {
    const { items, total } = await listTicketHistory(runtime.table, workspaceId, { ticketId, from, to }, { page, limit });
    return paged(items, { page, limit }, total);
  },
});
