import type { Page, PageRequest } from '#lib/store/pages.ts';
import type { HistoryEvent, HistoryEventKind, TicketType } from './history.ts';
import { type HistoryQuery, historyRepository } from './history-repository.ts';
import type { Ticket } from './ticket-item.ts';
import { type TicketFilter, ticketRepository } from './ticket-repository.ts';
import type { Scope } from '#lib/identity/scope.ts';

/** Incidents, problems and changes in one list, newest first, with the ticket types' counters for the total. */
export const listTickets = (
  { ports: { table }, workspaceId }: Scope,
  { page, limit, cursor, type, status }: TicketFilter & PageRequest,
): Promise<Page<Ticket>> => ticketRepository(table, workspaceId).listTickets({ type, status }, { page, limit, cursor });

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
