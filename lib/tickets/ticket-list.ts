import type { Page, PageRequest } from '#lib/store/pages.ts';
import { queryPage } from '#lib/store/pages.ts';
import type { HistoryEvent, HistoryEventKind, TicketType } from './history.ts';
import { type HistoryQuery, historyRepository } from './history-repository.ts';
import { ticketFromItem, ticketListPartition, type Ticket } from './ticket-index.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { readTicketTotal } from './ticket-total.ts';

export interface TicketFilter {
  type?: TicketType;
  status?: string;
}

/**
 * Incidents, problems and changes in one list, newest first (gsi3 sorts by `<createdAt>#<id>`); type and
 * status are filters on the one partition (docs/data-model.md 5.6), the total the ticket types' counters.
 */
export const listTickets = async (
  { ports: { table }, workspaceId }: Scope,
  { page, limit, cursor, type, status }: TicketFilter & PageRequest,
): Promise<Page<Ticket>> => {
  const conditions = [...(type ? ['#type = :type'] : []), ...(status ? ['#status = :status'] : [])];
  return queryPage(
    table,
    {
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :pk',
      ...(conditions.length > 0 && {
        FilterExpression: conditions.join(' AND '),
        ExpressionAttributeNames: { ...(type && { '#type': 'type' }), ...(status && { '#status': 'status' }) },
      }),
      ExpressionAttributeValues: {
        ':pk': ticketListPartition(workspaceId),
        ...(type && { ':type': type }),
        ...(status && { ':status': status }),
      },
      ScanIndexForward: false,
    },
    { page, limit, cursor },
    ticketFromItem,
    () => readTicketTotal(table, workspaceId, { type, status }),
  );
};

/** A history event as the API shows it: `from` and `to` always present (null on events without a change). */
export interface HistoryEventView {
  id: string;
  ticketId: string;
  ticketType: TicketType;
  event: HistoryEventKind;
  from: string | null;
  to: string | null;
  field?: string;
  actor: string;
  message?: string;
  timestamp: string;
}

const historyView = ({
  id,
  ticketId,
  ticketType,
  event,
  from,
  to,
  field,
  actor,
  message,
  timestamp,
}: HistoryEvent): HistoryEventView => ({
  id,
  ticketId,
  ticketType,
  event,
  from: from ?? null,
  to: to ?? null,
  ...(field !== undefined && { field }),
  actor,
  ...(message !== undefined && { message }),
  timestamp,
});

/** History of one ticket or of the whole workspace, chronological, within `[from, to]` when given. */
export const listTicketHistory = async (
  { ports: { table }, workspaceId }: Scope,
  { page, limit, cursor, ...query }: HistoryQuery & PageRequest,
): Promise<Page<HistoryEventView>> => {
  const { items, ...paging } = await historyRepository(table, workspaceId).listHistory(query, { page, limit, cursor });
  return { items: items.map(historyView), ...paging };
};
