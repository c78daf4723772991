import { UnauthorizedError } from '#lib/contract/errors.ts';
import { updateIfPresent } from '#lib/store/conditional-writes.ts';
import { getItem } from '#lib/store/items.ts';
import type { Table } from '#lib/store/table.ts';
import { parseApiKey, secretMatches, type ApiKey } from './api-key.ts';
import { apiKeyFromItem, apiKeyItemKey } from './api-key-repository.ts';

/** `lastUsedAt` is refreshed at most once a minute per key, so a busy key does not write on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Refreshes `lastUsedAt` when it is a minute old: the gateway's authorizer does it for every key it vouches for. */
export const recordKeyUse = async (table: Table, key: ApiKey, now: Date): Promise<void> => {
  const stale = !key.lastUsedAt || now.getTime() - Date.parse(key.lastUsedAt) >= LAST_USED_RESOLUTION_MS;
  if (!stale) return;
  const minuteAgo = new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString();
  // Another request may have refreshed it a moment ago: then the condition fails and nothing is written.
  await updateIfPresent(table, apiKeyItemKey(key.workspaceId, key.id), {
    UpdateExpression: 'SET lastUsedAt = :now',
    ConditionExpression: 'attribute_not_exists(lastUsedAt) OR lastUsedAt < :minuteAgo',
    ExpressionAttributeValues: { ':now': now.toISOString(), ':minuteAgo': minuteAgo },
  });
};

/**
 * The active, unexpired key a raw key names, read strongly consistently so a rotation or revocation
 * applies to the very next request. Every failure is the same 401 but for the reason in the message.
 */
export const authenticateApiKey = async (table: Table, raw: string, now: Date): Promise<ApiKey> => {
  const parsed = parseApiKey(raw.trim());
  if (!parsed) throw new UnauthorizedError('Invalid API key');
  const Item = await getItem(table, apiKeyItemKey(parsed.workspaceId, parsed.keyId));
  if (!Item || typeof Item.secretHash !== 'string' || !secretMatches(parsed.secret, Item.secretHash)) {
    throw new UnauthorizedError('Invalid API key');
  }
  const key = apiKeyFromItem(Item);
  if (!key.isActive) throw new UnauthorizedError('API key revoked');
  if (key.expiresAt && key.expiresAt <= now.toISOString()) throw new UnauthorizedError('API key expired');
  return key;
};
