import { NotFoundError } from '#lib/contract/errors.ts';
import { userOf } from '#lib/identity/caller.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { workspaceRepository } from '#lib/workspaces/workspace-repository.ts';
import { integrationView, type IntegrationType, type IntegrationView } from './integration.ts';
import { integrationRepository } from './integration-repository.ts';
import { saveIntegration } from './save-integration.ts';

/**
 * Connects the caller's phone number for SMS alerts or the messaging app. The number is taken as given
 * (E.164, checked by the schema): the provider's own opt-in and the messaging app's pre-registration are
 * the business's to arrange.
 */
export const connectPhone = async (
  scope: Scope,
  {
    type,
    phoneNumber,
    provider,
  }: { type: 'sms' | 'messaging-app'; phoneNumber: string; provider?: string | undefined },
): Promise<IntegrationView> => {
  const { userId } = userOf(scope.caller);
  const saved = await saveIntegration(
    scope,
    { userId, type },
    { status: 'ACTIVE', statusReason: null, phoneNumber, ...(provider && { provider }), reconnect: true },
  );
  return integrationView(saved);
};

/** A member of the caller's workspace, else 404: another workspace's user is not found here. */
const requireMember = async ({ ports, workspaceId }: Scope, userId: string): Promise<void> => {
  if (!(await workspaceRepository(ports.table, workspaceId).getMember(userId))) {
    throw new NotFoundError('User not found', [`userId: no member ${userId} in this workspace`]);
  }
};

export const listUserIntegrations = async (scope: Scope, userId: string): Promise<IntegrationView[]> => {
  await requireMember(scope, userId);
  const stored = await integrationRepository(scope.ports.table, scope.workspaceId).queryUserIntegrations(userId);
  return stored.map(integrationView);
};

/**
 * DISCONNECTED, its credentials removed; the record stays so the list shows it. Disconnecting chat also
 * removes the workspace's chat webhook, so notifications stop posting. Hooks created at code hosts stay
 * there until removed at the host (their ingestion keys can be revoked with the API-key routes).
 */
export const disconnectIntegration = async (
  scope: Scope,
  { userId, integrationType }: { userId: string; integrationType: IntegrationType },
): Promise<IntegrationView> => {
  const integrations = integrationRepository(scope.ports.table, scope.workspaceId);
  if (!(await integrations.findIntegration(userId, integrationType))) {
    throw new NotFoundError('Integration not found', [
      `integrationType: ${userId} has no ${integrationType} integration`,
    ]);
  }
  if (integrationType === 'chat') await integrations.deleteChatWebhook();
  const saved = await saveIntegration(
    scope,
    { userId, type: integrationType },
    { status: 'DISCONNECTED', statusReason: null, credentials: null },
  );
  return integrationView(saved);
};
