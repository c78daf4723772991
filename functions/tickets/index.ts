import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { paged } from '#lib/http/pagination.ts';
import { tickets } from '#lib/routes/tickets.ts';

/** The service loads on the first request, not at cold start (docs/performance.md, "Bundles and cold imports"). */
const ticketList = onFirstUse(() => import('#lib/tickets/ticket-list.ts'));

export const handler = createGroupHandler(tickets, {
  listTickets: async ({ scope, query }) => {
    const { items, ...paging } = await (await ticketList()).listTickets(scope, query);
    return paged(items, query, paging);
  },
  listHistory: async ({ scope, query }) => {
    const { items, ...paging } = await (await ticketList()).listTicketHistory(scope, query);
    return paged(items, query, paging);
  },
});
