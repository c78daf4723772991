import { ConflictError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { IntegrationStatus, IntegrationType, StoredIntegration } from './integration.ts';
import { integrationRepository } from './integration-repository.ts';

const ATTEMPTS = 3;

export interface IntegrationChanges {
  status: IntegrationStatus;
  statusReason: string | null;
  /** A sealed credential, `null` to remove it; left as it is when undefined. */
  credentials?: string | null;
  phoneNumber?: string;
  provider?: string;
  channel?: string;
  /** A new connection (not a refresh or a status change): `connectedAt` moves to now. */
  reconnect?: boolean;
}

/**
 * Creates or changes a member's connection with a read-modify-write on its `rev`, retried on a conflict, so
 * a token refresh and a disconnect at the same moment cannot interleave into a half of each.
 */
export const saveIntegration = async (
  { ports: { table, clock, ids }, workspaceId }: Scope,
  { userId, type }: { userId: string; type: IntegrationType },
  { reconnect = false, ...changes }: IntegrationChanges,
): Promise<StoredIntegration> => {
  const integrations = integrationRepository(table, workspaceId);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const existing = await integrations.findIntegration(userId, type);
    const now = clock.now().toISOString();
    const next: StoredIntegration = {
      ...(existing ?? { id: ids.sortable(), userId, integrationType: type, credentials: null, rev: 0 }),
      ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
      connectedAt: reconnect || !existing ? now : existing.connectedAt,
      updatedAt: now,
    } as StoredIntegration;
    if (await integrations.writeIntegration(next, existing?.rev ?? 0))
      return { ...next, rev: (existing?.rev ?? 0) + 1 };
  }
  throw new ConflictError('The integration changed during the request; try again');
};
