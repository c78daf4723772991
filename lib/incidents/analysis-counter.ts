import type { CountedList } from '#lib/store/list-counters.ts';

/**
 * ANALYSIS_COUNTER (docs/data-model.md 5.16): `total` and `status#<S>`, so `GET /analyses` totals are one GetItem.
 * Here beside the analysis items' keys (incident-item.ts): the engine counts what it writes, and an incident's
 * delete what it removes.
 */
export const ANALYSIS_COUNTER: CountedList<{ status: string }> = {
  name: 'ANALYSES',
  type: 'ANALYSIS_COUNTER',
  attributes: ['status'],
  filters: ({ status }) => ({ status }),
};
