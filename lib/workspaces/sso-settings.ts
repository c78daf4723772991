import { BadRequestError, ConflictError } from '#lib/contract/errors.ts';
import type { SsoSettingsInput } from './schemas.ts';
import type { SsoSettings } from './sso.ts';
import { provesSsoDomain, ssoDomainRecord, ssoDomainVerification } from './sso-domain-proof.ts';
import {
  SsoDomainTakenError,
  findDomainClaim,
  findSsoForEmail,
  putSsoSettings,
  ssoRepository,
} from './sso-repository.ts';
import type { AccountScope, Scope } from '#lib/identity/scope.ts';

/** A workspace that never configured SSO has it disabled, so GET answers 200 with an empty setting, not 404. */
const ssoView = (workspaceId: string, settings: SsoSettings | undefined) => ({
  enabled: settings?.enabled ?? false,
  protocol: settings?.protocol ?? null,
  loginUrl: settings?.loginUrl ?? null,
  domains: settings?.domains ?? [],
  updatedAt: settings?.updatedAt ?? null,
  domainVerification: ssoDomainVerification(workspaceId),
});

export const readSsoSettings = async ({ ports: { table }, workspaceId }: Scope) =>
  ssoView(workspaceId, await ssoRepository(table, workspaceId).getSsoSettings());

/** The listed domains this workspace has not proved yet and whose DNS does not publish its token now. */
const unprovenDomains = async ({ ports: { table, network }, workspaceId }: Scope, domains: string[]) => {
  const unproven: string[] = [];
  for (const domain of domains) {
    const claim = await findDomainClaim(table, domain);
    const proved = claim?.workspaceId === workspaceId && claim.verifiedAt !== undefined;
    if (!proved && !(await provesSsoDomain(network, workspaceId, domain))) unproven.push(domain);
  }
  return unproven;
};

/**
 * Replaces the workspace's SSO settings. Each domain must be proved by its TXT record (once: a proved claim
 * stays until dropped, or taken over by a workspace that proves the domain after this one's record is
 * gone); nothing is written while any is unproven.
 */
export const replaceSsoSettings = async (scope: Scope, input: SsoSettingsInput) => {
  const { ports, workspaceId } = scope;
  const { table, clock, network } = ports;
  const unproven = await unprovenDomains(scope, input.domains);
  if (unproven.length > 0) {
    throw new BadRequestError(
      'Prove each domain first: publish the TXT record domainVerification names',
      unproven.map((domain) => {
        const record = ssoDomainRecord(workspaceId, domain);
        return `domains: ${domain} publishes no TXT record ${record.name} with the value ${record.value}`;
      }),
    );
  }
  const now = clock.now().toISOString();
  try {
    const settings = await putSsoSettings(
      table,
      { workspaceId, ...input, updatedAt: now },
      { verifiedAt: now, stillProves: (owner, domain) => provesSsoDomain(network, owner, domain) },
    );
    return ssoView(workspaceId, settings);
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
