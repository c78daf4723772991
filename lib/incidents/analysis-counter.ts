import { counterDelta, filterCounts } from '#lib/store/counters.ts';
import { addToListCounter, type ListCounter, readListTotal, recountListCounter } from '#lib/store/list-counters.ts';
import type { Table } from '#lib/store/table.ts';

/**
 * ANALYSIS_COUNTER (docs/data-model.md 5.16): `total` and `status#<S>`, so `GET /analyses` totals are one GetItem.
 * Here beside the analysis items' keys (incident-item.ts): the engine counts what it writes, and an incident's
 * delete what it removes.
 */
const ANALYSIS_COUNTER: ListCounter = { name: 'ANALYSES', type: 'ANALYSIS_COUNTER' };

const contribution = (status: string | undefined): Record<string, number> => (status ? filterCounts({ status }) : {});

export const countAnalysisWrite = (
  table: Table,
  workspaceId: string,
  before: string | undefined,
  after: string | undefined,
): Promise<void> =>
  addToListCounter(table, workspaceId, ANALYSIS_COUNTER, counterDelta(contribution(before), contribution(after)));

export const readAnalysisTotal = (table: Table, workspaceId: string, status?: string): Promise<number> =>
  readListTotal(table, workspaceId, ANALYSIS_COUNTER, { status });

/** The recount (data-model 6): the counter recomputed from the analyses' statuses. */
export const recountAnalyses = (table: Table, workspaceId: string, partition: string): Promise<number> =>
  recountListCounter(table, workspaceId, ANALYSIS_COUNTER, {
    partition,
    attributes: ['status'],
    contribution: (item) => contribution(item.status as string),
  });
