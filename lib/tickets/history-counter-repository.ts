import { batchPutItems } from '#lib/store/batch.ts';
import { sumCounts } from '#lib/store/counters.ts';
import { addToListCounter, type ListCounter, listCounterItem, readListCounter } from '#lib/store/list-counters.ts';
import type { Table } from '#lib/store/table.ts';

/**
 * HISTORY_COUNTER (docs/data-model.md 5.16): the workspace's history events (`HISTORY`) and each ticket's
 * (`HISTORY#<ticketId>`), as `total` and one `day#<YYYY-MM-DD>` per UTC day, so a list's total, with or
 * without a date range, is one GetItem; only a bound inside a day adds a COUNT of that day's rest.
 */
const TYPE = 'HISTORY_COUNTER';
const DAY_PREFIX = 'day#';

const counterOf = (ticketId?: string): ListCounter => ({
  name: ticketId === undefined ? 'HISTORY' : `HISTORY#${ticketId}`,
  type: TYPE,
});

const dayOf = (timestamp: string): string => timestamp.slice(0, 10);

const eventCounts = (timestamp: string, count: number): Record<string, number> => ({
  total: count,
  [`${DAY_PREFIX}${dayOf(timestamp)}`]: count,
});

/** Events between two sort keys (inclusive), for the part of a bound's day outside the range. */
export type CountBetween = (low: string, high: string) => Promise<number>;

/** The history counters of one workspace. */
export const historyCounterRepository = (table: Table, workspaceId: string) => {
  /** Counts events recorded together (one timestamp) in the workspace's counter and in each ticket's. */
  const countHistory = async (events: readonly { ticketId: string; timestamp: string }[]): Promise<void> => {
    const byTicket = new Map<string, { timestamp: string; count: number }>();
    for (const { ticketId, timestamp } of events) {
      byTicket.set(ticketId, { timestamp, count: (byTicket.get(ticketId)?.count ?? 0) + 1 });
    }
    const [first] = events;
    if (!first) return;
    await Promise.all([
      addToListCounter(table, workspaceId, counterOf(), eventCounts(first.timestamp, events.length)),
      ...[...byTicket].map(([ticketId, { timestamp, count }]) =>
        addToListCounter(table, workspaceId, counterOf(ticketId), eventCounts(timestamp, count)),
      ),
    ]);
  };

  /**
   * How many events a history list has within `[from, to]`: the days the range touches added up, less the
   * events of a bound's day that fall outside it (none when the bound is the day's edge, as a date is).
   */
  const readHistoryTotal = async (
    { ticketId, from, to }: { ticketId?: string; from?: string; to?: string },
    countBetween: CountBetween,
  ): Promise<number> => {
    const counts = await readListCounter(table, workspaceId, counterOf(ticketId));
    if (!from && !to) return counts.total ?? 0;
    const [low, high] = [from ? dayOf(from) : '', to ? dayOf(to) : '~'];
    const days = Object.entries(counts)
      .filter(([name]) => name.startsWith(DAY_PREFIX) && name.slice(DAY_PREFIX.length) >= low)
      .filter(([name]) => name.slice(DAY_PREFIX.length) <= high)
      .reduce((sum, [, count]) => sum + count, 0);
    const [before, after] = await Promise.all([
      from && !from.endsWith('T00:00:00.000Z') ? countBetween(low, from) : 0,
      // `~` sorts after every character of `<timestamp>#<id>`, as in the list's own upper bound.
      to && !to.endsWith('T23:59:59.999Z') ? countBetween(`${to}~`, `${high}~`) : 0,
    ]);
    return Math.max(0, days - before - after);
  };

  /** The recount (data-model 6): every history counter of the workspace recomputed from its events. */
  const rewriteHistoryCounters = async (events: readonly { ticketId: string; timestamp: string }[]): Promise<void> => {
    const perTicket = new Map<string, Record<string, number>>();
    for (const { ticketId, timestamp } of events) {
      perTicket.set(ticketId, sumCounts([perTicket.get(ticketId) ?? {}, eventCounts(timestamp, 1)]));
    }
    const all = sumCounts([...perTicket.values()]);
    await batchPutItems(table, [
      listCounterItem(workspaceId, counterOf(), all),
      ...[...perTicket].map(([ticketId, counts]) => listCounterItem(workspaceId, counterOf(ticketId), counts)),
    ]);
  };

  return { countHistory, readHistoryTotal, rewriteHistoryCounters };
};
