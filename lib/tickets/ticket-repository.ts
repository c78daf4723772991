import { filterCounterName } from '#lib/store/counters.ts';
import { readListCounter } from '#lib/store/list-counters.ts';
import { type Page, type PageRequest, queryPage } from '#lib/store/pages.ts';
import type { Table } from '#lib/store/table.ts';
import type { TicketType } from './history.ts';
import { TICKET_COUNTERS } from './ticket-counters.ts';
import { type Ticket, ticketFromItem, ticketListPartition } from './ticket-item.ts';

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
