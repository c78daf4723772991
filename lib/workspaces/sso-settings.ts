import { ConflictError } from '#lib/contract/errors.ts';
import type { Ports } from '#lib/ports/ports.ts';
import type { SsoSettingsInput } from './schemas.ts';
import type { SsoSettings } from './sso.ts';
import { SsoDomainTakenError, getSsoSettings, putSsoSettings } from './sso-repository.ts';

/** A workspace that never configured SSO has it disabled, so GET answers 200 with an empty setting, not 404. */
const ssoView = (settings: SsoSettings | undefined) => ({
  enabled: settings?.enabled ?? false,
  protocol: settings?.protocol ?? null,
  loginUrl: settings?.loginUrl ?? null,
  domains: settings?.domains ?? [],
  updatedAt: settings?.updatedAt ?? null,
});

export const readSsoSettings = async ({ table }: Ports, workspaceId: string) =>
  ssoView(await getSsoSettings(table, workspaceId));

export const replaceSsoSettings = async ({ table, clock }: Ports, workspaceId: string, input: SsoSettingsInput) => {
  try {
    return ssoView(await putSsoSettings(table, { workspaceId, ...input, updatedAt: clock.now().toISOString() }));
  } catch (error) {
    if (error instanceof SsoDomainTakenError) {
      throw new ConflictError('An e-mail domain is used by another workspace\'s SSO', [
        `domains: ${error.domain} belongs to another workspace`,
      ]);
    }
    throw error;
  }
};
