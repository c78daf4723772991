import type { ChangeStatus } from '#lib/ingestion/normalized-event.ts';

/** A deployment's states as a CHANGE ticket shows them; they join the unified ticket statuses. */
export const CHANGE_STATUSES = [
  'PENDING',
  'IN_PROGRESS',
  'SUCCEEDED',
  'FAILED',
  'CANCELLED',
  'INACTIVE',
] as const satisfies readonly ChangeStatus[];
