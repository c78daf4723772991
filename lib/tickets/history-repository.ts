import type { Page, PageRequest } from '#lib/store/pages.ts';
import type { Clock } from '#lib/ports/clock.ts';
import type { Ids } from '#lib/ports/ids.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { countAll, queryAll } from '#lib/store/queries.ts';
import { queryPage } from '#lib/store/pages.ts';
import type { Table } from '#lib/store/table.ts';
import type { HistoryEvent, HistoryEventInput } from './history.ts';
import { putNew } from '#lib/store/conditional-writes.ts';
import { historyCounterRepository } from './history-counter-repository.ts';

const historyPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'HIST');
const ticketHistoryPartition = (workspaceId: string, ticketId: string): string =>
  workspaceKey(workspaceId, 'HIST', ticketId);

const sortKey = (event: HistoryEvent): string => `${event.timestamp}#${event.id}`;

const toItem = (workspaceId: string, event: HistoryEvent): Record<string, unknown> => ({
  pk: historyPartition(workspaceId),
  sk: sortKey(event),
  gsi2pk: ticketHistoryPartition(workspaceId, event.ticketId),
  gsi2sk: sortKey(event),
  type: 'HISTORY_EVENT',
  workspaceId,
  ...event,
});

const fromItem = (item: Record<string, unknown>): HistoryEvent => {
  const { pk: _pk, sk: _sk, gsi2pk: _gsi2pk, gsi2sk: _gsi2sk, type: _type, workspaceId: _workspaceId, ...event } = item;
  return event as unknown as HistoryEvent;
};

/**
 * Records what happened, after the change itself was written. Events of one call share a timestamp, `at`
 * when the caller knows the instant its change was written (so the history shows the change's own time,
 * not a later second), and get increasing ids (monotonic ULIDs), so they keep the order they were given in.
 */
export const recordHistory = async (
  { table, clock, ids }: { table: Table; clock: Clock; ids: Ids },
  workspaceId: string,
  events: readonly HistoryEventInput[],
  at?: string,
): Promise<HistoryEvent[]> => {
  const timestamp = at ?? clock.now().toISOString();
  const recorded = events.map((input): HistoryEvent => ({ ...input, id: ids.sortable(), timestamp }));
  await Promise.all(recorded.map((event) => putNew(table, toItem(workspaceId, event))));
  await historyCounterRepository(table, workspaceId).countHistory(recorded);
  return recorded;
};

export interface HistoryQuery {
  ticketId?: string;
  /** ISO 8601 bounds, inclusive. */
  from?: string;
  to?: string;
}

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const historyRepository = (table: Table, workspaceId: string) => {
  const counters = historyCounterRepository(table, workspaceId);
  /**
   * History in chronological order: of one ticket (gsi2) or of the whole workspace (base table). The total is
   * the history counter's (`readHistoryTotal`).
   */
  const listHistory = async ({ ticketId, from, to }: HistoryQuery, page: PageRequest): Promise<Page<HistoryEvent>> => {
    const partition = ticketId ? ticketHistoryPartition(workspaceId, ticketId) : historyPartition(workspaceId);
    const [pkName, skName] = ticketId ? ['gsi2pk', 'gsi2sk'] : ['pk', 'sk'];
    const index = ticketId ? { IndexName: 'gsi2' } : {};
    const range =
      from && to ? ' AND #sk BETWEEN :from AND :to' : from ? ' AND #sk >= :from' : to ? ' AND #sk <= :to' : '';
    const countBetween = (low: string, high: string) =>
      countAll(table, {
        ...index,
        KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :low AND :high',
        ExpressionAttributeNames: { '#pk': pkName as string, '#sk': skName as string },
        ExpressionAttributeValues: { ':pk': partition, ':low': low, ':high': high },
      });
    return queryPage(
      table,
      {
        ...index,
        KeyConditionExpression: `#pk = :pk${range}`,
        ExpressionAttributeNames: { '#pk': pkName as string, ...(range && { '#sk': skName as string }) },
        ExpressionAttributeValues: {
          ':pk': partition,
          ...(from && { ':from': from }),
          // `~` sorts after every character of `<timestamp>#<id>`, so events at the `to` instant are included.
          ...(to && { ':to': `${to}~` }),
        },
        ScanIndexForward: true,
      },
      page,
      fromItem,
      () => counters.readHistoryTotal({ ticketId, from, to }, countBetween),
    );
  };

  /** The recount (docs/data-model.md 6): every history counter recomputed from the events. */
  const recountHistory = async (): Promise<number> => {
    const events = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': historyPartition(workspaceId) },
      ExpressionAttributeNames: { '#timestamp': 'timestamp' },
      ProjectionExpression: 'ticketId, #timestamp',
    });
    await counters.rewriteHistoryCounters(events as { ticketId: string; timestamp: string }[]);
    return events.length;
  };
  return { listHistory, recountHistory };
};
