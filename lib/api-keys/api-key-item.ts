import { workspaceKey } from '#lib/store/keys.ts';
import type { ApiKey } from './api-key.ts';

export const apiKeyPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'APIKEY');

export const apiKeyItemKey = (workspaceId: string, keyId: string) => ({ pk: apiKeyPartition(workspaceId), sk: keyId });

export const apiKeyToItem = (key: ApiKey, secretHash: string): Record<string, unknown> => ({
  ...apiKeyItemKey(key.workspaceId, key.id),
  type: 'API_KEY',
  ...key,
  secretHash,
});

/** The key without its secret's hash, which never leaves this module and the repository. */
export const apiKeyFromItem = (item: Record<string, unknown>): ApiKey => {
  const { pk: _pk, sk: _sk, type: _type, secretHash: _secretHash, ...key } = item;
  return key as unknown as ApiKey;
};
