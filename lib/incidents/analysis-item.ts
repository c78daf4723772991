import { workspaceKey } from '#lib/store/keys.ts';
import type { CountedList } from '#lib/store/list-counters.ts';
import { incidentChildPartition } from './incident-item.ts';

/**
 * The keys of the analysis engine's items (docs/data-model.md 5.15), here below lib/analysis because an
 * incident's delete removes them: ANALYSIS items in `{W}#ANALYSIS`, by status in gsi1, by incident in gsi2;
 * each analysis's evidence and reports in its own partition.
 */
export const analysisPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'ANALYSIS');

export const analysisStatusPartition = (workspaceId: string, status: string): string =>
  workspaceKey(workspaceId, 'ANALYSIS', 'STATUS', status);

/** gsi2 of the analysis items of one incident. */
export const incidentAnalysisPartition = (workspaceId: string, incidentId: string): string =>
  `${incidentChildPartition(workspaceId, incidentId)}#ANALYSIS`;

/** An analysis's own items, its evidence and reports: deleted with its incident. */
export const analysisChildPartition = (workspaceId: string, analysisId: string): string =>
  workspaceKey(workspaceId, 'ANALYSIS', analysisId);

/**
 * ANALYSIS_COUNTER (docs/data-model.md 5.16): `total` and `status#<S>`, so `GET /analyses` totals are one GetItem.
 * Here beside the analysis items' keys: the engine counts what it writes, and an incident's
 * delete what it removes.
 */
export const ANALYSIS_COUNTER: CountedList<{ status: string }> = {
  name: 'ANALYSES',
  type: 'ANALYSIS_COUNTER',
  attributes: ['status'],
  filters: ({ status }) => ({ status }),
};
