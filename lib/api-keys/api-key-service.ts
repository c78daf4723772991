import { BadRequestError, ConflictError, NotFoundError } from '#lib/contract/errors.ts';
import { log } from '#lib/log/logger.ts';
import type { Ports } from '#lib/ports/ports.ts';
import { formatApiKey, hashApiKeySecret, type ApiKey } from './api-key.ts';
import { toApiKeyResource, type ApiKeyResource } from './api-key-resource.ts';
import { apiKeyRepository, insertApiKey, type StoredApiKey } from './api-key-repository.ts';
import type { CreateApiKeyInput, UpdateApiKeyInput } from './schemas.ts';
import type { Scope } from '#lib/identity/scope.ts';

/** 256 bits: enough that a fast hash of the secret is safe to store (docs/data-model.md 5.3). */
const SECRET_BYTES = 32;
const DELETE_ATTEMPTS = 3;

const notFound = (): NotFoundError => new NotFoundError('API key not found');
const revoked = (): ConflictError =>
  new ConflictError('A revoked API key cannot be rotated; reactivate it first', ['isActive: the key is revoked']);

const mintSecret = (ports: Ports, workspaceId: string, keyId: string) => {
  const secret = ports.ids.secret(SECRET_BYTES);
  return { raw: formatApiKey(workspaceId, keyId, secret), secretHash: hashApiKeySecret(secret) };
};

/** Removes a mirror nothing refers to any more; a failure only leaves a gateway key behind, so it is logged. */
const discardMirror = async (ports: Ports, keyId: string, mirrorId: string): Promise<void> => {
  try {
    await ports.usagePlan.remove(mirrorId);
  } catch (error) {
    log.warn('could not remove an unused usage-plan mirror of an API key', { keyId, mirrorId, error });
  }
};

/**
 * The mirror is registered before the record is written: if registering fails nothing is stored, and
 * if the write fails the mirror is taken back, so a failed create leaves no key behind.
 */
export const createApiKey = async ({ ports, workspaceId }: Scope, input: CreateApiKeyInput) => {
  const now = ports.clock.now();
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : undefined;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) {
    throw new BadRequestError('Validation failed', ['expiresAt: must be in the future']);
  }
  const id = ports.ids.sortable();
  const { raw, secretHash } = mintSecret(ports, workspaceId, id);
  const key: ApiKey = {
    id,
    workspaceId,
    name: input.name,
    environment: input.environment,
    scopes: [...new Set(input.scopes)],
    isActive: true,
    // Normalised to UTC: authentication compares it with the clock as a string.
    ...(expiresAt && { expiresAt: expiresAt.toISOString() }),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  const usagePlanKeyId = await ports.usagePlan.register({ id, workspaceId, value: secretHash, enabled: true });
  try {
    await insertApiKey(ports.table, { key, usagePlanKeyId }, secretHash);
  } catch (error) {
    await discardMirror(ports, id, usagePlanKeyId);
    throw error;
  }
  return { ...toApiKeyResource(key), key: raw };
};

export const listApiKeys = async ({ ports, workspaceId }: Scope): Promise<ApiKeyResource[]> =>
  (await apiKeyRepository(ports.table, workspaceId).queryApiKeys()).map(({ key }) => toApiKeyResource(key));

/**
 * A new secret with a new mirror. The record is written only if the key is still active and still has
 * the mirror read, so of two concurrent rotations one wins and the other is a 409; once it is written,
 * the old secret is refused by the very next request (authentication reads the record consistently).
 */
export const rotateApiKey = async ({ ports, workspaceId }: Scope, keyId: string) => {
  const apiKeys = apiKeyRepository(ports.table, workspaceId);
  const stored = await apiKeys.findApiKey(keyId);
  if (!stored) throw notFound();
  if (!stored.key.isActive) throw revoked();
  const { raw, secretHash } = mintSecret(ports, workspaceId, keyId);
  const usagePlanKeyId = await ports.usagePlan.register({ id: keyId, workspaceId, value: secretHash, enabled: true });
  const now = ports.clock.now().toISOString();
  let replaced: boolean;
  try {
    replaced = await apiKeyRepository(ports.table, workspaceId).replaceApiKeySecret(keyId, stored.usagePlanKeyId, {
      secretHash,
      usagePlanKeyId,
      now,
    });
  } catch (error) {
    await discardMirror(ports, keyId, usagePlanKeyId);
    throw error;
  }
  if (!replaced) {
    await discardMirror(ports, keyId, usagePlanKeyId);
    const current = await apiKeys.findApiKey(keyId);
    if (!current) throw notFound();
    if (!current.key.isActive) throw revoked();
    throw new ConflictError('The API key is being rotated by another request; try again');
  }
  // The new secret must reach the caller now: a leftover old mirror is only logged.
  if (stored.usagePlanKeyId) await discardMirror(ports, keyId, stored.usagePlanKeyId);
  return { id: keyId, key: raw };
};

/** The mirror follows the record's resulting state; an error is a 500, and repeating the request repairs it. */
const mirrorEnabled = async (ports: Ports, { key, usagePlanKeyId }: StoredApiKey): Promise<void> => {
  const mirrored = usagePlanKeyId !== undefined && (await ports.usagePlan.setEnabled(usagePlanKeyId, key.isActive));
  if (!mirrored) log.warn('API key has no usage-plan mirror; its next rotation creates one', { keyId: key.id });
};

/** Revoke, rename, reactivate: the record first, since it alone decides whether the key works. */
export const updateApiKey = async (
  { ports, workspaceId }: Scope,
  { id: keyId, changes }: { id: string; changes: UpdateApiKeyInput },
): Promise<ApiKeyResource> => {
  const now = ports.clock.now().toISOString();
  const stored = await apiKeyRepository(ports.table, workspaceId).writeApiKeyChanges(keyId, changes, now);
  if (!stored) throw notFound();
  if (changes.isActive !== undefined) await mirrorEnabled(ports, stored);
  return toApiKeyResource(stored.key);
};

export const revokeApiKey = async (scope: Scope, keyId: string): Promise<void> => {
  await updateApiKey(scope, { id: keyId, changes: { isActive: false } });
};

/**
 * The mirror goes first: if removing it fails, the record is intact and repeating the delete finishes
 * it. The record is deleted only if no rotation replaced the mirror meanwhile, else it is read again.
 */
export const deleteApiKey = async ({ ports, workspaceId }: Scope, keyId: string): Promise<void> => {
  const apiKeys = apiKeyRepository(ports.table, workspaceId);
  for (let attempt = 0; attempt < DELETE_ATTEMPTS; attempt += 1) {
    const stored = await apiKeys.findApiKey(keyId);
    if (!stored) throw notFound();
    if (stored.usagePlanKeyId) await ports.usagePlan.remove(stored.usagePlanKeyId);
    if (await apiKeys.removeApiKey(keyId, stored.usagePlanKeyId)) return;
  }
  throw new ConflictError('The API key changed while it was being deleted; try again');
};
