import type { Signal } from './signal.ts';
import { signalFromItem, signalItemKey } from './signal-item.ts';
import type { Table } from '#lib/store/table.ts';
import { updateIf, updateIfPresent } from '#lib/store/conditional-writes.ts';
import { batchGetItems } from '#lib/store/batch.ts';
import { findItem } from '#lib/store/items.ts';

/**
 * The writes correlation makes to SIGNAL items (docs/data-model.md 5.7), through the signal module's
 * key builders: the incident link and the end of the pending-correlation membership.
 */

export interface SignalForCorrelation {
  signal: Signal;
  /** Still in the sparse pending index: correlation has not finished with it. */
  pending: boolean;
}

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const signalIncidentRepository = (table: Table, workspaceId: string) => {
  const readSignalForCorrelation = async (signalId: string): Promise<SignalForCorrelation | undefined> => {
    return findItem(table, signalItemKey(workspaceId, signalId), (item) => ({
      signal: signalFromItem(item, workspaceId),
      pending: item.gsi3pk !== undefined,
    }));
  };

  /** The signals that still exist, consistently read, in no particular order. */
  const readSignals = async (signalIds: readonly string[]): Promise<Signal[]> => {
    const items = await batchGetItems(
      table,
      signalIds.map((signalId) => signalItemKey(workspaceId, signalId)),
    );
    return items.map((item) => signalFromItem(item, workspaceId));
  };

  /**
   * Points the signal at its incident unless it belongs to another one: a signal is in at most one
   * incident. `linked` only for the write that changed it, so what follows a new link happens once.
   */
  const setSignalIncident = async (
    signalId: string,
    incidentId: string,
    at: string,
  ): Promise<'linked' | 'already-linked' | 'in-another-incident'> => {
    const linked = await updateIfPresent(table, signalItemKey(workspaceId, signalId), {
      UpdateExpression: 'SET incidentId = :incidentId, updatedAt = :at',
      ConditionExpression: 'attribute_not_exists(incidentId)',
      ExpressionAttributeValues: { ':incidentId': incidentId, ':at': at },
    });
    if (linked) return 'linked';
    const current = await readSignalForCorrelation(signalId);
    return current?.signal.incidentId === incidentId ? 'already-linked' : 'in-another-incident';
  };

  /**
   * Ends the signal's membership of the pending index: correlation is done with it. Repeating it is
   * harmless; true only for the call that ended it.
   */
  const markCorrelated = async (signalId: string): Promise<boolean> => {
    const ended = await updateIf(table, signalItemKey(workspaceId, signalId), {
      UpdateExpression: 'REMOVE gsi3pk, gsi3sk',
      ConditionExpression: 'attribute_exists(gsi3pk)',
    });
    return ended !== undefined;
  };

  /** Takes the incident off the signal, if the signal still names it (the incident is being deleted). */
  const clearSignalIncident = async (signalId: string, incidentId: string): Promise<void> => {
    await updateIf(table, signalItemKey(workspaceId, signalId), {
      UpdateExpression: 'REMOVE incidentId',
      ConditionExpression: 'incidentId = :incidentId',
      ExpressionAttributeValues: { ':incidentId': incidentId },
    });
  };
  return { readSignalForCorrelation, readSignals, setSignalIncident, markCorrelated, clearSignalIncident };
};
