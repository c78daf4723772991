import type { Table } from '#lib/store/table.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/queries.ts';
import { deleteIfPresent, putNew } from '#lib/store/conditional-writes.ts';
import { getItem } from '#lib/store/items.ts';
import type { IntegrationKey } from './integration-key.ts';

const partition = (workspaceId: string): string => workspaceKey(workspaceId, 'INTKEY');
const itemKey = (workspaceId: string, keyId: string) => ({ pk: partition(workspaceId), sk: keyId });

const fromItem = (item: Record<string, unknown>): IntegrationKey => {
  const { pk: _pk, sk: _sk, type: _type, secretHash: _secretHash, ...key } = item;
  return key as unknown as IntegrationKey;
};

export const integrationKeyRepository = (table: Table, workspaceId: string) => ({
  insert: (key: IntegrationKey, secretHash: string): Promise<void> =>
    putNew(table, { ...itemKey(workspaceId, key.id), type: 'INTEGRATION_KEY', ...key, secretHash }),
  /** Newest first (ULIDs), read consistently so a key just created is listed. */
  list: async (): Promise<IntegrationKey[]> => {
    const items = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': partition(workspaceId) },
      ScanIndexForward: false,
      ConsistentRead: true,
    });
    return items.map(fromItem);
  },
  /** False if there was no such key. */
  remove: async (keyId: string): Promise<boolean> =>
    (await deleteIfPresent(table, itemKey(workspaceId, keyId), {})) !== undefined,
  /** The key with its secret's hash, read strongly consistently: a deleted key fails the very next event. */
  findWithSecret: async (keyId: string): Promise<{ key: IntegrationKey; secretHash: string } | undefined> => {
    const item = await getItem(table, itemKey(workspaceId, keyId));
    if (!item || typeof item.secretHash !== 'string') return undefined;
    return { key: fromItem(item), secretHash: item.secretHash };
  },
});
