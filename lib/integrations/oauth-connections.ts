import { BadRequestError, ConflictError, NotFoundError } from '#lib/contract/errors.ts';
import { userOf } from '#lib/identity/caller.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { IntegrationProvider, OAuthIntegration } from '#lib/ports/integration-providers/integration-providers.ts';
import { log } from '#lib/log/logger.ts';
import { integrationView, type IntegrationView, type OAuthCredentials, type StoredIntegration } from './integration.ts';
import { integrationRepository } from './integration-repository.ts';
import { signState, STATE_LIFETIME_MS, verifyState } from './oauth-state.ts';
import { exchangeCode, needsRefresh, refreshTokens } from './oauth-tokens.ts';
import { ProviderRefusedError } from './provider-http.ts';
import { openSecret, sealSecret } from './sealed-credentials.ts';
import { saveIntegration } from './save-integration.ts';

/** Where each provider sends the person back: the spec's callback routes, which differ in shape. */
export const CALLBACK_PATHS: Record<OAuthIntegration, string> = {
  chat: '/api/v1/integrations/chat/oauth/callback',
  'codehost-a': '/api/v1/integrations/codehost-a/callbacks/codehost-a',
  'codehost-b': '/api/v1/integrations/codehost-b/callback',
  videomeet: '/api/v1/integrations/videomeet/oauth/callback',
};

const providerOf = async ({ ports }: Scope, integration: OAuthIntegration): Promise<IntegrationProvider> => {
  const provider = (await ports.integrations.providers())[integration];
  if (!provider) {
    throw new BadRequestError(`${integration} is not configured in this deployment`, [
      `provider: no ${integration} OAuth application is configured (README, "Integrations")`,
    ]);
  }
  return provider;
};

const redirectUriOf = ({ ports }: Scope, integration: OAuthIntegration): string =>
  `${ports.integrations.apiUrl}${CALLBACK_PATHS[integration]}`;

const sealContext = (workspaceId: string, userId: string, integration: OAuthIntegration) => ({
  workspaceId,
  integration: `${userId}#${integration}`,
});

export interface ConnectStart {
  authUrl: string;
  expiresAt: string;
}

/**
 * The provider's authorization URL with a signed `state` binding the caller, the workspace and the
 * provider for ten minutes; nothing is written until the callback.
 */
export const startOAuthConnect = async (scope: Scope, integration: OAuthIntegration): Promise<ConnectStart> => {
  const { userId } = userOf(scope.caller);
  const provider = await providerOf(scope, integration);
  const expiresAt = new Date(scope.ports.clock.now().getTime() + STATE_LIFETIME_MS).toISOString();
  const state = await signState(scope.ports.signingKeys, {
    stateId: scope.ports.ids.uuid(),
    workspaceId: scope.workspaceId,
    userId,
    integration,
    expiresAt,
  });
  const authUrl = new URL(provider.authorizeUrl);
  authUrl.searchParams.set('response_type', 'code');
  authUrl.searchParams.set('client_id', provider.clientId);
  authUrl.searchParams.set('redirect_uri', redirectUriOf(scope, integration));
  authUrl.searchParams.set('state', state);
  if (provider.scopes) authUrl.searchParams.set('scope', provider.scopes);
  return { authUrl: authUrl.toString(), expiresAt };
};

const badState = (reason: string) => new BadRequestError('Invalid OAuth state', [`state: ${reason}`]);

/**
 * Checks the state (its MAC, its provider, its caller and workspace, its expiry), uses it up with one
 * conditional put, then exchanges the code. A refused exchange leaves the connection in ERROR with the
 * provider's reason and answers 400.
 */
export const completeOAuthConnect = async (
  scope: Scope,
  { integration, code, state: rawState }: { integration: OAuthIntegration; code: string; state: string },
): Promise<IntegrationView> => {
  const { userId } = userOf(scope.caller);
  const { ports, workspaceId } = scope;
  const state = await verifyState(ports.signingKeys, rawState);
  if (!state || state.integration !== integration)
    throw badState(`is not a state this service issued for ${integration}`);
  if (state.workspaceId !== workspaceId || state.userId !== userId) throw badState('was issued to another user');
  const now = ports.clock.now();
  if (Date.parse(state.expiresAt) <= now.getTime()) throw badState('has expired; connect again');
  const provider = await providerOf(scope, integration);
  const integrations = integrationRepository(ports.table, workspaceId);
  if (!(await integrations.markStateUsed(state.stateId, state.expiresAt))) throw badState('was used already');
  let credentials: OAuthCredentials;
  try {
    credentials = await exchangeCode(provider, code, redirectUriOf(scope, integration), now);
  } catch (error) {
    if (!(error instanceof ProviderRefusedError)) throw error;
    await saveIntegration(
      scope,
      { userId, type: integration },
      { status: 'ERROR', statusReason: `token exchange refused: ${error.reason}` },
    );
    throw new BadRequestError('The provider refused the authorization code', [`code: ${error.reason}`]);
  }
  const sealed = await sealSecret(
    ports.credentialKeys,
    sealContext(workspaceId, userId, integration),
    JSON.stringify(credentials),
  );
  return integrationView(
    await saveIntegration(
      scope,
      { userId, type: integration },
      { status: 'ACTIVE', statusReason: null, credentials: sealed, reconnect: true },
    ),
  );
};

/**
 * The workspace's working connection to a provider: the caller's own if they have one, else the most
 * recently connected one of any member, since repositories and meetings belong to the team.
 */
export const workspaceConnection = async (scope: Scope, integration: OAuthIntegration): Promise<StoredIntegration> => {
  const all = await integrationRepository(scope.ports.table, scope.workspaceId).queryWorkspaceIntegrations();
  const active = all
    .filter((one) => one.integrationType === integration && one.status === 'ACTIVE' && one.credentials)
    .sort((a, b) => b.connectedAt.localeCompare(a.connectedAt));
  const { caller } = scope;
  const own = caller.kind === 'user' ? active.find((one) => one.userId === caller.userId) : undefined;
  const chosen = own ?? active[0];
  if (!chosen) {
    throw new ConflictError(`${integration} is not connected`, [
      `${integration}: connect it first with POST /api/v1/integrations/${integration}/connect`,
    ]);
  }
  return chosen;
};

/** Marks the connection ERROR with why; the next connect brings it back. */
export const markConnectionFailed = async (scope: Scope, connection: StoredIntegration, reason: string) => {
  log.warn('integration connection failed', { integration: connection.integrationType, reason });
  await saveIntegration(
    scope,
    { userId: connection.userId, type: connection.integrationType },
    { status: 'ERROR', statusReason: reason },
  );
};

/**
 * A usable access token of the connection, refreshed first when it is about to expire (the refreshed
 * tokens are sealed and stored). A refused refresh puts the connection in ERROR and answers 409.
 */
export const accessTokenOf = async (scope: Scope, connection: StoredIntegration): Promise<string> => {
  const integration = connection.integrationType as OAuthIntegration;
  const context = sealContext(scope.workspaceId, connection.userId, integration);
  if (!connection.credentials) throw new NotFoundError(`${integration} has no credentials`);
  const credentials = JSON.parse(
    await openSecret(scope.ports.credentialKeys, context, connection.credentials),
  ) as OAuthCredentials;
  const now = scope.ports.clock.now();
  if (!needsRefresh(credentials, now)) return credentials.accessToken;
  const failed = async (reason: string): Promise<never> => {
    await markConnectionFailed(scope, connection, reason);
    throw new ConflictError(`The ${integration} connection needs to be made again`, [`${integration}: ${reason}`]);
  };
  const { refreshToken } = credentials;
  if (!refreshToken) return failed('the access token expired and the provider gave no refresh token');
  let refreshed: OAuthCredentials;
  try {
    refreshed = await refreshTokens(await providerOf(scope, integration), refreshToken, now);
  } catch (error) {
    if (!(error instanceof ProviderRefusedError)) throw error;
    return failed(`token refresh refused: ${error.reason}`);
  }
  const sealed = await sealSecret(scope.ports.credentialKeys, context, JSON.stringify(refreshed));
  await saveIntegration(
    scope,
    { userId: connection.userId, type: integration },
    { status: 'ACTIVE', statusReason: null, credentials: sealed },
  );
  return refreshed.accessToken;
};
