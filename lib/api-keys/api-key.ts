import { createHash, timingSafeEqual } from 'node:crypto';
import type { KeyScope } from '#lib/identity/caller.ts';

export const API_KEY_ENVIRONMENTS = ['PRODUCTION', 'STAGING', 'DEVELOPMENT'] as const;
type ApiKeyEnvironment = (typeof API_KEY_ENVIRONMENTS)[number];

export interface ApiKey {
  id: string;
  workspaceId: string;
  name: string;
  environment: ApiKeyEnvironment;
  scopes: KeyScope[];
  isActive: boolean;
  expiresAt?: string;
  lastUsedAt?: string;
  rotatedAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** The recognisable start of every key, so leaked keys are easy to find in logs and by secret scanners. */
const API_KEY_PREFIX = 'ims_';

/**
 * The wire form `ims_<workspaceId>.<keyId>.<secret>`: the ids say where the key's record is, so a key is
 * checked with one strongly consistent read; only the secret's hash is stored.
 */
export const formatApiKey = (workspaceId: string, keyId: string, secret: string): string =>
  `${API_KEY_PREFIX}${workspaceId}.${keyId}.${secret}`;

export interface ParsedApiKey {
  workspaceId: string;
  keyId: string;
  secret: string;
}

const PART = /^[A-Za-z0-9_-]+$/;

export const parseApiKey = (raw: string): ParsedApiKey | undefined => {
  if (!raw.startsWith(API_KEY_PREFIX)) return undefined;
  const [workspaceId, keyId, secret, ...rest] = raw.slice(API_KEY_PREFIX.length).split('.');
  if (rest.length > 0 || !workspaceId || !keyId || !secret) return undefined;
  if (![workspaceId, keyId, secret].every((part) => PART.test(part))) return undefined;
  return { workspaceId, keyId, secret };
};

/**
 * SHA-256, not a slow hash: the secret has 256 bits of entropy, so there is nothing to guess, and a slow
 * hash would only slow every request.
 */
export const hashApiKeySecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export const secretMatches = (secret: string, storedHash: string): boolean => {
  const actual = Buffer.from(hashApiKeySecret(secret), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
};
