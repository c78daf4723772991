import { BadRequestError, ConflictError } from '#lib/contract/errors.ts';
import type { Network } from '#lib/ports/network/network.ts';
import {
  type CheckedUrl,
  OutboundUrlRefusedError,
  checkOutboundUrl,
  pinnedFetch,
} from '#lib/ports/network/outbound-url.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { CodeHostConnection } from './code-host-client.ts';
import { type CodeHostSettings, codeHostSettingsRepository } from './code-host-settings-repository.ts';
import { type CodeHostSettingsInput, DEFAULT_CODE_HOST_API } from './schemas.ts';
import { openSecret, sealSecret } from './token-seal.ts';

export interface CodeHostSettingsView {
  configured: boolean;
  baseUrl: string;
  tokenHint: string | null;
  updatedAt: string | null;
  updatedBy: string | null;
}

/** Never the token: only whether one is set and its last four characters. */
const settingsView = (settings: CodeHostSettings | undefined): CodeHostSettingsView =>
  settings
    ? {
        configured: true,
        baseUrl: settings.baseUrl,
        tokenHint: settings.tokenHint,
        updatedAt: settings.updatedAt,
        updatedBy: settings.updatedBy,
      }
    : { configured: false, baseUrl: DEFAULT_CODE_HOST_API, tokenHint: null, updatedAt: null, updatedBy: null };

export const getCodeHostSettings = async ({ ports, workspaceId }: Scope): Promise<CodeHostSettingsView> =>
  settingsView(await codeHostSettingsRepository(ports.table, workspaceId).findSettings());

/** The API root through the outbound guard: a workspace must not point the service into its own network. */
const checkedBaseUrl = async (network: Network, baseUrl: string): Promise<CheckedUrl> => {
  try {
    return await checkOutboundUrl(network, baseUrl, { base: true });
  } catch (error) {
    if (error instanceof OutboundUrlRefusedError)
      throw new BadRequestError('Validation failed', [`baseUrl: ${error.message}`]);
    throw error;
  }
};

/** Replaces the workspace's token and API root; the token is sealed before it is stored. */
export const putCodeHostSettings = async (
  { ports, workspaceId, actor }: Scope,
  { token, baseUrl }: CodeHostSettingsInput,
): Promise<CodeHostSettingsView> => {
  await checkedBaseUrl(ports.network, baseUrl);
  const settings: CodeHostSettings = {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    sealedToken: await sealSecret(ports.signingKeys, workspaceId, token),
    tokenHint: `…${token.slice(-4)}`,
    updatedAt: ports.clock.now().toISOString(),
    updatedBy: actor,
  };
  await codeHostSettingsRepository(ports.table, workspaceId).putSettings(settings);
  return settingsView(settings);
};

/** The workspace's connection to code host A; without one, nothing can be read from or written to it (409). */
export const codeHostConnection = async ({ ports, workspaceId }: Scope): Promise<CodeHostConnection> => {
  const settings = await codeHostSettingsRepository(ports.table, workspaceId).findSettings();
  if (!settings) {
    throw new ConflictError(
      'Code host A is not connected for this workspace; an ADMIN sets a token with PUT /api/v1/code-engine/settings',
    );
  }
  const token = await openSecret(ports.signingKeys, workspaceId, settings.sealedToken);
  if (token === undefined) {
    throw new ConflictError(
      'The stored code host A token was sealed with a key rotated out since; an ADMIN sets it again with PUT /api/v1/code-engine/settings',
    );
  }
  // Checked again at every use: the name may point elsewhere now; the calls then go to the address checked.
  let checked: CheckedUrl;
  try {
    checked = await checkOutboundUrl(ports.network, settings.baseUrl, { base: true });
  } catch (error) {
    if (!(error instanceof OutboundUrlRefusedError)) throw error;
    throw new ConflictError(
      'The stored code host A API root is refused now; an ADMIN sets it again with PUT /api/v1/code-engine/settings',
      [`baseUrl: ${error.message}`],
    );
  }
  return { token, baseUrl: settings.baseUrl, fetch: pinnedFetch(checked) };
};
