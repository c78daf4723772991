import { NotFoundError, UnauthorizedError, ForbiddenError } from '#lib/contract/errors.ts';
import { authenticateApiKey } from '#lib/api-keys/api-key-authentication.ts';
import { parseApiKey } from '#lib/api-keys/api-key.ts';
import type { AccountScope, Scope } from '#lib/identity/scope.ts';
import {
  formatIntegrationKey,
  hashIntegrationSecret,
  integrationSecretMatches,
  parseIntegrationKey,
  type IntegrationKey,
} from './integration-key.ts';
import type { IntegrationKeyInput } from './schemas.ts';
import { integrationKeyRepository } from './integration-key-repository.ts';

/** 256 bits, as API keys: a fast hash of the secret is safe to store. */
const SECRET_BYTES = 32;

const publicView = ({ id, name, serviceId, createdAt }: IntegrationKey) => ({ id, name, serviceId, createdAt });

export const createIntegrationKey = async ({ ports, workspaceId }: Scope, input: IntegrationKeyInput) => {
  const id = ports.ids.sortable();
  const secret = ports.ids.secret(SECRET_BYTES);
  const key: IntegrationKey = {
    id,
    workspaceId,
    name: input.name,
    serviceId: input.serviceId,
    createdAt: ports.clock.now().toISOString(),
  };
  await integrationKeyRepository(ports.table, workspaceId).insert(key, hashIntegrationSecret(secret));
  return { ...publicView(key), key: formatIntegrationKey(workspaceId, id, secret) };
};

export const listIntegrationKeys = async ({ ports, workspaceId }: Scope) =>
  (await integrationKeyRepository(ports.table, workspaceId).list()).map(publicView);

export const deleteIntegrationKey = async ({ ports, workspaceId }: Scope, keyId: string): Promise<void> => {
  const removed = await integrationKeyRepository(ports.table, workspaceId).remove(keyId);
  if (!removed) throw new NotFoundError('Integration key not found');
};

/** Whom a paging-tool credential names: the workspace it ingests into, and the service of an integration key. */
export interface EventCredential {
  scope: Scope;
  serviceId?: string;
}

/**
 * An integration key (the events are about its service), or an API key with `ingestion:write` (the events
 * name no service): the same two a paging tool's sender may be given. Every failure is a 401 (403 for a key
 * without the scope), as on the other ingestion routes.
 */
export const authenticateEventCredential = async (scope: AccountScope, raw: string): Promise<EventCredential> => {
  const trimmed = raw.trim();
  const parsed = parseIntegrationKey(trimmed);
  if (parsed) {
    const found = await integrationKeyRepository(scope.ports.table, parsed.workspaceId).findWithSecret(parsed.keyId);
    if (!found || !integrationSecretMatches(parsed.secret, found.secretHash)) {
      throw new UnauthorizedError('Invalid integration key');
    }
    const { key } = found;
    const caller = {
      kind: 'apiKey' as const,
      keyId: key.id,
      name: `integration:${key.name}`,
      workspaceId: key.workspaceId,
      scopes: ['ingestion:write' as const],
    };
    return {
      scope: { ...scope, caller, actor: `integration:${key.name}`, workspaceId: key.workspaceId },
      serviceId: key.serviceId,
    };
  }
  if (!parseApiKey(trimmed)) throw new UnauthorizedError('Invalid integration key');
  const key = await authenticateApiKey(scope, trimmed);
  if (!key.scopes.includes('ingestion:write')) throw new ForbiddenError('The API key lacks the ingestion:write scope');
  const caller = {
    kind: 'apiKey' as const,
    keyId: key.id,
    name: key.name,
    workspaceId: key.workspaceId,
    scopes: key.scopes,
  };
  return {
    scope: { ...scope, caller, actor: `api-key:${key.name}`, workspaceId: key.workspaceId },
  };
};
