import { defineGroup } from '#lib/http/route.ts';
import { listHistoryQuery, listTicketsQuery } from '#lib/tickets/schemas.ts';
import { tableRead } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';
import { metaExtra } from '#lib/contract/response-fields.ts';
import { historyEventData, ticketData } from '#lib/tickets/schemas.ts';
import * as z from 'zod/mini';

export const tickets = defineGroup({
  name: 'tickets',
  description: 'The unified ticket list and its audit history.',
  needs: [tableRead, signingKeys],
  routes: {
    listTickets: {
      method: 'GET',
      path: '/api/v1/tickets',
      summary: 'List tickets of every type',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      request: { query: listTicketsQuery },
      response: { status: 200, data: z.array(ticketData), extra: metaExtra },
    },
    listHistory: {
      method: 'GET',
      path: '/api/v1/tickets/history',
      summary: 'Ticket history events, chronological',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      request: { query: listHistoryQuery },
      response: { status: 200, data: z.array(historyEventData), extra: metaExtra },
    },
  },
});
