import { filterCounterName } from '#lib/store/counters.ts';
import { readListCounter } from '#lib/store/list-counters.ts';
import type { Table } from '#lib/store/table.ts';
import type { TicketType } from './history.ts';
import { TICKET_COUNTERS } from './ticket-counters.ts';

/**
 * The unified list's total from the counters its three ticket types keep anyway: the one type's, or the
 * three added up, each under the status asked for. No ticket counter of its own, so no write pays twice.
 */
export const readTicketTotal = async (
  table: Table,
  workspaceId: string,
  { type, status }: { type?: TicketType; status?: string },
): Promise<number> => {
  const types = type ? [type] : (Object.keys(TICKET_COUNTERS) as TicketType[]);
  const attribute = filterCounterName({ status });
  const counts = await Promise.all(
    types.map(
      async (ticketType) => (await readListCounter(table, workspaceId, TICKET_COUNTERS[ticketType]))[attribute] ?? 0,
    ),
  );
  return counts.reduce((sum, count) => sum + count, 0);
};
