import type { CountedList } from '#lib/store/list-counters.ts';

/** The list filters of a run as its item holds them. */
export interface RunCounted {
  status?: string;
  provider?: string;
  repositoryKey?: string;
  branch?: string | null;
}

/**
 * RUN_COUNTER (docs/data-model.md 5.16): `total` and one attribute per combination of status, provider,
 * repository and branch, so every run list's total is one GetItem. The repository is its `repositoryKey`;
 * the branch is URI-encoded but not normalised, since the list matches it exactly; so `#` and `|` never
 * occur in a value.
 */
export const RUN_COUNTER: CountedList<RunCounted> = {
  name: 'RUNS',
  type: 'RUN_COUNTER',
  attributes: ['status', 'provider', 'repositoryKey', 'branch'],
  filters: ({ status, provider, repositoryKey, branch }) => ({
    status,
    provider,
    repository: repositoryKey,
    branch: typeof branch === 'string' ? encodeURIComponent(branch) : undefined,
  }),
};
