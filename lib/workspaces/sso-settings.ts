import { ConflictError } from '#lib/contract/errors.ts';
import type { SsoSettingsInput } from './schemas.ts';
import type { SsoSettings } from './sso.ts';
import { SsoDomainTakenError, findSsoForEmail, putSsoSettings, ssoRepository } from './sso-repository.ts';
import type { AccountScope, Scope } from '#lib/identity/scope.ts';

/** A workspace that never configured SSO has it disabled, so GET answers 200 with an empty setting, not 404. */
const ssoView = (settings: SsoSettings | undefined) => ({
  enabled: settings?.enabled ?? false,
  protocol: settings?.protocol ?? null,
  loginUrl: settings?.loginUrl ?? null,
  domains: settings?.domains ?? [],
  updatedAt: settings?.updatedAt ?? null,
});

export const readSsoSettings = async ({ ports: { table }, workspaceId }: Scope) =>
  ssoView(await ssoRepository(table, workspaceId).getSsoSettings());

export const replaceSsoSettings = async ({ ports: { table, clock }, workspaceId }: Scope, input: SsoSettingsInput) => {
  try {
    return ssoView(await putSsoSettings(table, { workspaceId, ...input, updatedAt: clock.now().toISOString() }));
  } catch (error) {
    if (error instanceof SsoDomainTakenError) {
      throw new ConflictError("An e-mail domain is used by another workspace's SSO", [
        `domains: ${error.domain} belongs to another workspace`,
      ]);
    }
    throw error;
  }
};

export type SsoDiscovery =
  | { email: string; ssoEnabled: false }
  | { email: string; ssoEnabled: true; protocol: string; loginUrl: string };

/** Whether an e-mail's domain signs in through a workspace's SSO: asked before any account is known. */
export const discoverSso = async ({ ports }: AccountScope, email: string): Promise<SsoDiscovery> => {
  const sso = await findSsoForEmail(ports.table, email);
  return sso
    ? { email, ssoEnabled: true, protocol: sso.protocol, loginUrl: sso.loginUrl }
    : { email, ssoEnabled: false };
};
