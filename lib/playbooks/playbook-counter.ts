import type { CountedList } from '#lib/store/list-counters.ts';
import type { PlaybookStatus } from './playbook.ts';

/**
 * PLAYBOOK_COUNTER (docs/data-model.md 5.16): `total` and `status#<S>`, so the list's total and the stats'
 * totalPlaybooks are one GetItem. Kept by the repository after each head write.
 */
export const PLAYBOOK_COUNTER: CountedList<{ status: PlaybookStatus }> = {
  name: 'PLAYBOOKS',
  type: 'PLAYBOOK_COUNTER',
  attributes: ['status'],
  filters: ({ status }) => ({ status }),
};
