import { BatchGetCommand, UpdateCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { Signal } from './signal.ts';
import { signalFromItem, signalItemKey } from './signal-item.ts';
import type { Table } from '#lib/store/table.ts';
import { unlessConditionFails } from '#lib/store/conditional-writes.ts';
import { isConditionFailure } from '#lib/store/store-errors.ts';
import { getItem } from '#lib/store/items.ts';

/**
 * The writes correlation makes to SIGNAL items (docs/data-model.md 5.7), through the signal module's
 * key builders: the incident link and the end of the pending-correlation membership.
 */

export interface SignalForCorrelation {
  signal: Signal;
  /** Still in the sparse pending index: correlation has not finished with it. */
  pending: boolean;
}

export const readSignalForCorrelation = async (
  table: Table,
  workspaceId: string,
  signalId: string,
): Promise<SignalForCorrelation | undefined> => {
  const Item = await getItem(table, signalItemKey(workspaceId, signalId));
  return Item && { signal: signalFromItem(Item, workspaceId), pending: Item.gsi3pk !== undefined };
};

const BATCH_GET_LIMIT = 100;

/** The signals that still exist, consistently read, in no particular order. */
export const readSignals = async (
  table: Table,
  workspaceId: string,
  signalIds: readonly string[],
): Promise<Signal[]> => {
  const signals: Signal[] = [];
  for (let start = 0; start < signalIds.length; start += BATCH_GET_LIMIT) {
    let keys: Record<string, unknown>[] | undefined = signalIds
      .slice(start, start + BATCH_GET_LIMIT)
      .map((signalId) => signalItemKey(workspaceId, signalId));
    while (keys && keys.length > 0) {
      const result: BatchGetCommandOutput = await table.doc.send(
        new BatchGetCommand({ RequestItems: { [table.name]: { Keys: keys, ConsistentRead: true } } }),
      );
      signals.push(...(result.Responses?.[table.name] ?? []).map((item) => signalFromItem(item, workspaceId)));
      keys = result.UnprocessedKeys?.[table.name]?.Keys;
    }
  }
  return signals;
};

/**
 * Points the signal at its incident unless it belongs to another one: a signal is in at most one
 * incident. `linked` only for the write that changed it, so what follows a new link happens once.
 */
export const setSignalIncident = async (
  table: Table,
  workspaceId: string,
  signalId: string,
  incidentId: string,
  at: string,
): Promise<'linked' | 'already-linked' | 'in-another-incident'> => {
  try {
    await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: signalItemKey(workspaceId, signalId),
        UpdateExpression: 'SET incidentId = :incidentId, updatedAt = :at',
        ConditionExpression: 'attribute_exists(sk) AND attribute_not_exists(incidentId)',
        ExpressionAttributeValues: { ':incidentId': incidentId, ':at': at },
      }),
    );
    return 'linked';
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  const current = await readSignalForCorrelation(table, workspaceId, signalId);
  return current?.signal.incidentId === incidentId ? 'already-linked' : 'in-another-incident';
};

/** Ends the signal's membership of the pending index: correlation is done with it. Repeating it is harmless. */
export const markCorrelated = async (table: Table, workspaceId: string, signalId: string): Promise<void> => {
  await unlessConditionFails(async () => {
    await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: signalItemKey(workspaceId, signalId),
        UpdateExpression: 'REMOVE gsi3pk, gsi3sk',
        ConditionExpression: 'attribute_exists(gsi3pk)',
      }),
    );
  });
};

/** Takes the incident off the signal, if the signal still names it (the incident is being deleted). */
export const clearSignalIncident = async (
  table: Table,
  workspaceId: string,
  signalId: string,
  incidentId: string,
): Promise<void> => {
  await unlessConditionFails(async () => {
    await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: signalItemKey(workspaceId, signalId),
        UpdateExpression: 'REMOVE incidentId',
        ConditionExpression: 'incidentId = :incidentId',
        ExpressionAttributeValues: { ':incidentId': incidentId },
      }),
    );
  });
};
