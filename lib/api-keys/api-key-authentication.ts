import { UnauthorizedError } from '#lib/contract/errors.ts';
import type { AccountScope } from '#lib/identity/scope.ts';
import { parseApiKey, secretMatches, type ApiKey } from './api-key.ts';
import { findKeyWithSecret, recordKeyUseAt } from './api-key-repository.ts';

/** `lastUsedAt` is refreshed at most once a minute per key, so a busy key does not write on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Refreshes `lastUsedAt` when it is a minute old: the gateway's authorizer does it for every key it vouches for. */
export const recordKeyUse = async ({ ports }: AccountScope, key: ApiKey): Promise<void> => {
  const now = ports.clock.now();
  const stale = !key.lastUsedAt || now.getTime() - Date.parse(key.lastUsedAt) >= LAST_USED_RESOLUTION_MS;
  if (!stale) return;
  await recordKeyUseAt(ports.table, key, now, new Date(now.getTime() - LAST_USED_RESOLUTION_MS));
};

/**
 * The active, unexpired key a raw key names, read strongly consistently so a rotation or revocation
 * applies to the very next request. Every failure is the same 401 but for the reason in the message.
 */
export const authenticateApiKey = async ({ ports }: AccountScope, raw: string): Promise<ApiKey> => {
  const parsed = parseApiKey(raw.trim());
  if (!parsed) throw new UnauthorizedError('Invalid API key');
  const found = await findKeyWithSecret(ports.table, parsed.workspaceId, parsed.keyId);
  if (!found || !secretMatches(parsed.secret, found.secretHash)) throw new UnauthorizedError('Invalid API key');
  const { key } = found;
  if (!key.isActive) throw new UnauthorizedError('API key revoked');
  if (key.expiresAt && key.expiresAt <= ports.clock.now().toISOString()) throw new UnauthorizedError('API key expired');
  return key;
};
