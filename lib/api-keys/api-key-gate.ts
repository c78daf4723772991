import { createHash } from 'node:crypto';
import { KEY_SCOPES, type KeyScope } from '#lib/identity/caller.ts';
import type { AccountScope } from '#lib/identity/scope.ts';
import { authenticateApiKey, recordKeyUse } from './api-key-authentication.ts';
import { hashApiKeySecret, parseApiKey } from './api-key.ts';

/**
 * How long the gate trusts a key it has checked. Revoking, deactivating or rotating a key also disables
 * or removes its usage-plan mirror, which the gateway refuses on the very next request; this is only the
 * bound for a key changed behind the service's back (an item edited by hand).
 */
const GATE_CACHE_MS = 10_000;
/** Enough for every key of a busy deployment; the oldest entry makes room when it is full. */
const GATE_CACHE_ENTRIES = 5_000;

/** What the gate tells the gateway and, through its context, the function behind it. */
export interface VouchedKey {
  keyId: string;
  workspaceId: string;
  name: string;
  scopes: KeyScope[];
  /** The SHA-256 of the secret: the key's usage-plan identifier, and what the function checks against. */
  keyHash: string;
}

interface CacheEntry {
  key: VouchedKey;
  expiresAt: string | undefined;
  checkedAt: number;
}

/**
 * The key check in front of the functions (the gateway's authorizer): a key it vouches for is throttled
 * by its own usage-plan mirror and needs no second read in the function. A key it cannot vouch for is
 * left to the function, which answers the precise 401.
 */
export const createApiKeyGate = () => {
  const cache = new Map<string, CacheEntry>();
  const remember = (raw: string, entry: CacheEntry): void => {
    if (cache.size >= GATE_CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(raw, entry);
  };

  return async (scope: AccountScope, raw: string): Promise<VouchedKey | undefined> => {
    const now = scope.ports.clock.now();
    const cacheKey = createHash('sha256').update(raw).digest('hex');
    const cached = cache.get(cacheKey);
    const fresh = cached && now.getTime() - cached.checkedAt < GATE_CACHE_MS;
    if (cached && fresh && (!cached.expiresAt || cached.expiresAt > now.toISOString())) return cached.key;
    cache.delete(cacheKey);
    const parsed = parseApiKey(raw.trim());
    if (!parsed) return undefined;
    const key = await authenticateApiKey(scope, raw).catch(() => undefined);
    if (!key) return undefined;
    await recordKeyUse(scope, key);
    const vouched: VouchedKey = {
      keyId: key.id,
      workspaceId: key.workspaceId,
      name: key.name,
      scopes: key.scopes,
      keyHash: hashApiKeySecret(parsed.secret),
    };
    remember(cacheKey, { key: vouched, expiresAt: key.expiresAt, checkedAt: now.getTime() });
    return vouched;
  };
};

/** The authorizer context carries strings only. */
export const toGatewayContext = (key: VouchedKey): Record<string, string> => ({
  keyId: key.keyId,
  workspaceId: key.workspaceId,
  name: key.name,
  scopes: key.scopes.join(' '),
  keyHash: key.keyHash,
});

/**
 * The key the gateway's authorizer vouched for, when it is the key this request presents: a context is
 * only ever set by the gateway, and the hash ties it to the very secret the function sees.
 */
export const vouchedKeyOf = (context: unknown, raw: string): VouchedKey | undefined => {
  if (!context || typeof context !== 'object') return undefined;
  const { keyId, workspaceId, name, scopes, keyHash } = context as Record<string, unknown>;
  if (typeof keyId !== 'string' || typeof workspaceId !== 'string' || typeof keyHash !== 'string') return undefined;
  const parsed = parseApiKey(raw.trim());
  if (!parsed || parsed.keyId !== keyId || parsed.workspaceId !== workspaceId) return undefined;
  if (hashApiKeySecret(parsed.secret) !== keyHash) return undefined;
  const granted = typeof scopes === 'string' ? scopes.split(' ').filter(Boolean) : [];
  return {
    keyId,
    workspaceId,
    name: typeof name === 'string' ? name : keyId,
    scopes: granted.filter((scope): scope is KeyScope => (KEY_SCOPES as readonly string[]).includes(scope)),
    keyHash,
  };
};
