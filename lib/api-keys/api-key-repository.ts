import type { ApiKey } from './api-key.ts';
import type { Table } from '#lib/store/table.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/queries.ts';
import { setFields } from '#lib/store/set-fields.ts';
import { deleteIfPresent, putNew, updateIfPresent } from '#lib/store/conditional-writes.ts';
import { findItem, getItem } from '#lib/store/items.ts';

export const apiKeyPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'APIKEY');

const apiKeyItemKey = (workspaceId: string, keyId: string) => ({ pk: apiKeyPartition(workspaceId), sk: keyId });

const apiKeyToItem = (key: ApiKey, secretHash: string): Record<string, unknown> => ({
  ...apiKeyItemKey(key.workspaceId, key.id),
  type: 'API_KEY',
  ...key,
  secretHash,
});

/** The key without its secret's hash, which never leaves this module and the repository. */
const apiKeyFromItem = (item: Record<string, unknown>): ApiKey => {
  const { pk: _pk, sk: _sk, type: _type, secretHash: _secretHash, ...key } = item;
  return key as unknown as ApiKey;
};

/** A key record: the key, and the id of its mirror in the usage plan (absent if it has none). */
export interface StoredApiKey {
  key: ApiKey;
  usagePlanKeyId?: string;
}

const storedFromItem = (item: Record<string, unknown>, workspaceId: string): StoredApiKey => {
  const { usagePlanKeyId, ...rest } = item;
  const key = apiKeyFromItem(rest);
  if (key.workspaceId !== workspaceId) throw new Error(`API key ${key.id} read outside its workspace`);
  return { key, ...(typeof usagePlanKeyId === 'string' && { usagePlanKeyId }) };
};

/** The mirror a write expects to find, so a concurrent rotation (which replaces it) fails the write. */
const mirrorIs = (usagePlanKeyId: string | undefined) =>
  usagePlanKeyId === undefined
    ? { condition: 'attribute_not_exists(usagePlanKeyId)', values: {} }
    : { condition: 'usagePlanKeyId = :mirror', values: { ':mirror': usagePlanKeyId } };

export const insertApiKey = async (table: Table, stored: StoredApiKey, secretHash: string): Promise<void> => {
  await putNew(table, { ...apiKeyToItem(stored.key, secretHash), usagePlanKeyId: stored.usagePlanKeyId });
};

export interface NewSecret {
  secretHash: string;
  usagePlanKeyId: string;
  now: string;
}

export type ApiKeyChanges = Partial<Pick<ApiKey, 'name' | 'isActive'>>;

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const apiKeyRepository = (table: Table, workspaceId: string) => {
  /** Newest first (ids are ULIDs), read consistently so a key just created or changed is listed as it is. */
  const queryApiKeys = async (): Promise<StoredApiKey[]> => {
    const items = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': apiKeyPartition(workspaceId) },
      ScanIndexForward: false,
      ConsistentRead: true,
    });
    return items.map((item) => storedFromItem(item, workspaceId));
  };

  const findApiKey = (keyId: string): Promise<StoredApiKey | undefined> =>
    findItem(table, apiKeyItemKey(workspaceId, keyId), (item) => storedFromItem(item, workspaceId));

  /**
   * Replaces the secret (and its mirror) of an active key whose mirror is still `previousMirror`. False if
   * the condition failed: the key is gone, inactive, or another rotation replaced the mirror first.
   */
  const replaceApiKeySecret = async (
    keyId: string,
    previousMirror: string | undefined,
    { secretHash, usagePlanKeyId, now }: NewSecret,
  ): Promise<boolean> => {
    const set = setFields({ secretHash, usagePlanKeyId, rotatedAt: now, updatedAt: now });
    const mirror = mirrorIs(previousMirror);
    const applied = await updateIfPresent(table, apiKeyItemKey(workspaceId, keyId), {
      ...set,
      ConditionExpression: `isActive = :true AND ${mirror.condition}`,
      ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ':true': true, ...mirror.values },
    });
    return applied !== undefined;
  };

  /** The key after the change, or undefined if there is no such key. */
  const writeApiKeyChanges = async (
    keyId: string,
    changes: ApiKeyChanges,
    now: string,
  ): Promise<StoredApiKey | undefined> => {
    const item = await updateIfPresent(table, apiKeyItemKey(workspaceId, keyId), {
      ...setFields({ ...changes, updatedAt: now }),
    });
    return item && storedFromItem(item, workspaceId);
  };

  /** Deletes the key if its mirror is still `expectedMirror`; false if it is gone or was rotated meanwhile. */
  const removeApiKey = async (keyId: string, expectedMirror: string | undefined): Promise<boolean> => {
    const mirror = mirrorIs(expectedMirror);
    const applied = await deleteIfPresent(table, apiKeyItemKey(workspaceId, keyId), {
      ConditionExpression: mirror.condition,
      ...(expectedMirror !== undefined && { ExpressionAttributeValues: mirror.values }),
    });
    return applied !== undefined;
  };
  return {
    queryApiKeys,
    findApiKey,
    replaceApiKeySecret,
    writeApiKeyChanges,
    removeApiKey,
  };
};

/*
 * The two operations of authenticating a raw key, apart from the workspace-bound factory: every function's
 * cold start authenticates keys, and a bundle carries only the operations it reaches, not the whole factory.
 */

/** A key with the hash of its secret, read strongly consistently: what authenticating a raw key checks. */
export const findKeyWithSecret = async (
  table: Table,
  workspaceId: string,
  keyId: string,
): Promise<{ key: ApiKey; secretHash: string } | undefined> => {
  const item = await getItem(table, apiKeyItemKey(workspaceId, keyId));
  if (!item || typeof item.secretHash !== 'string') return undefined;
  return { key: apiKeyFromItem(item), secretHash: item.secretHash };
};

/** Sets a key's `lastUsedAt` unless it is after `since`: another request may have refreshed it a moment ago. */
export const recordKeyUseAt = async (table: Table, key: ApiKey, now: Date, since: Date): Promise<void> => {
  await updateIfPresent(table, apiKeyItemKey(key.workspaceId, key.id), {
    UpdateExpression: 'SET lastUsedAt = :now',
    ConditionExpression: 'attribute_not_exists(lastUsedAt) OR lastUsedAt < :since',
    ExpressionAttributeValues: { ':now': now.toISOString(), ':since': since.toISOString() },
  });
};
