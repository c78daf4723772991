import { createGroupHandler } from '#lib/app/group-handler.ts';
import { paged } from '#lib/http/pagination.ts';
import { tickets } from '#lib/routes/tickets.ts';
import { listTicketHistory, listTickets } from '#lib/tickets/ticket-list.ts';

export const handler = createGroupHandler(tickets, {
  listTickets: async ({ scope, query }) => {
    const { items, ...paging } = await listTickets(scope, query);
    return paged(items, query, paging);
  },
  listHistory: async ({ scope, query }) => {
    const { items, ...paging } = await listTicketHistory(scope, query);
    return paged(items, query, paging);
  },
});
