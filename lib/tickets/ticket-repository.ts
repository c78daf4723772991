import { workspaceKey } from '#lib/store/keys.ts';
import { filterCounterName } from '#lib/store/counters.ts';
import { readListCounter } from '#lib/store/list-counters.ts';
import { type Page, type PageRequest, queryPage } from '#lib/store/pages.ts';
import type { Table } from '#lib/store/table.ts';
import type { TicketType } from './history.ts';
import { TICKET_COUNTERS } from './ticket-counters.ts';

/** The unified ticket list's partition, shared by incidents, problems and changes (gsi3, newest first). */
export const ticketListPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'TICKET');

/** The gsi3 attributes that put a ticket item in the unified list; every ticket item's `toItem` spreads them. */
export const ticketIndexKeys = (workspaceId: string, ticket: { id: string; createdAt: string }) => ({
  gsi3pk: ticketListPartition(workspaceId),
  gsi3sk: `${ticket.createdAt}#${ticket.id}`,
});

export interface Ticket {
  id: string;
  type: TicketType;
  summary: string;
  priority: string | null;
  status: string;
  assignedTo: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A ticket item as the unified list shows it; its item `type` is the ticket type. */
export const ticketFromItem = (item: Record<string, unknown>): Ticket => ({
  id: item.id as string,
  type: item.type as TicketType,
  summary: (item.summary ?? item.title) as string,
  priority: (item.priority as string | undefined) ?? null,
  status: item.status as string,
  assignedTo: (item.assignedToEmail as string | undefined) ?? null,
  createdAt: item.createdAt as string,
  updatedAt: (item.updatedAt ?? item.createdAt) as string,
});

export interface TicketFilter {
  type?: TicketType;
  status?: string;
}

/** The unified ticket list of one workspace. */
export const ticketRepository = (table: Table, workspaceId: string) => {
  /**
   * The list's total from the counters its three ticket types keep anyway: the one type's, or the three
   * added up, each under the status asked for. No ticket counter of its own, so no write pays twice.
   */
  const readTicketTotal = async ({ type, status }: TicketFilter): Promise<number> => {
    const types = type ? [type] : (Object.keys(TICKET_COUNTERS) as TicketType[]);
    const attribute = filterCounterName({ status });
    const counts = await Promise.all(
      types.map(
        async (ticketType) => (await readListCounter(table, workspaceId, TICKET_COUNTERS[ticketType]))[attribute] ?? 0,
      ),
    );
    return counts.reduce((sum, count) => sum + count, 0);
  };

  /**
   * Incidents, problems and changes in one list, newest first (gsi3 sorts by `<createdAt>#<id>`); type and
   * status are filters on the one partition (docs/data-model.md 5.6), the total the ticket types' counters.
   */
  const listTickets = (filter: TicketFilter, page: PageRequest): Promise<Page<Ticket>> => {
    const { type, status } = filter;
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
      page,
      ticketFromItem,
      () => readTicketTotal(filter),
    );
  };

  return { listTickets };
};
