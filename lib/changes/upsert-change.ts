import type { ChangeInput } from '#lib/changes/change-input.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { HistoryEventInput } from '#lib/tickets/history.ts';
import { recordHistory } from '#lib/tickets/history-repository.ts';
import { type ChangeWrite, changeRepository } from './change-repository.ts';

/** The history a write leaves: CREATED for a new change, STATUS_CHANGE when a later event moved it. */
const historyOf = (change: ChangeInput, write: ChangeWrite, actor: string): HistoryEventInput[] => {
  const base = { ticketId: change.changeKey, ticketType: 'CHANGE' as const, actor };
  if (write.outcome === 'created') return [{ ...base, event: 'CREATED', from: null, to: change.status }];
  if (write.outcome === 'updated' && write.previousStatus !== change.status) {
    return [{ ...base, event: 'STATUS_CHANGE', from: write.previousStatus, to: change.status }];
  }
  return [];
};

/**
 * A deployment event into its CHANGE ticket (docs/data-model.md 5.6), then its history. A redelivery of the
 * same event writes the same fields and no new history; a late, older event changes nothing.
 */
export const upsertChange = async (
  { ports, workspaceId, actor }: Scope,
  change: ChangeInput,
): Promise<{ changeId: string; applied: boolean }> => {
  const write = await changeRepository(ports.table, workspaceId).upsertChangeItem(
    change,
    ports.clock.now().toISOString(),
  );
  const history = historyOf(change, write, change.deployer ?? actor);
  if (history.length > 0) await recordHistory(ports, workspaceId, history);
  return { changeId: change.changeKey, applied: write.outcome !== 'stale' };
};
