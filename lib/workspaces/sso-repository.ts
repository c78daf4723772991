import { accountKey, workspaceKey } from '#lib/store/keys.ts';
import type { Table } from '#lib/store/table.ts';
import { deleteIf, putIf, putItem } from '#lib/store/conditional-writes.ts';
import { emailDomain, type SsoSettings } from './sso.ts';
import { getItem } from '#lib/store/items.ts';

export const ssoSettingsKey = (workspaceId: string) => ({ pk: workspaceKey(workspaceId), sk: 'SSO' });

/**
 * A domain belongs to at most one workspace's SSO. Like an e-mail claim, it is looked up before anyone
 * is signed in, so it lives outside the workspace partitions and holds only the workspace id.
 */
export const ssoDomainClaimKey = (domain: string) => ({
  pk: accountKey('SSODOMAIN', encodeURIComponent(domain)),
  sk: 'SSO',
});

/** Who claimed a domain, and whether that workspace proved it (claims made before proofs existed did not). */
export const findDomainClaim = async (
  table: Table,
  domain: string,
): Promise<{ workspaceId: string; verifiedAt?: string } | undefined> => {
  const claim = await getItem(table, ssoDomainClaimKey(domain));
  return (
    claim && {
      workspaceId: claim.workspaceId as string,
      ...(typeof claim.verifiedAt === 'string' && { verifiedAt: claim.verifiedAt }),
    }
  );
};

/**
 * The enabled SSO settings that cover this address's domain, if a workspace proved the domain and
 * configured them. An unproven claim is never answered: discovery is public, and would otherwise send a
 * domain's people to whichever workspace named it first.
 */
export const findSsoForEmail = async (table: Table, email: string): Promise<SsoSettings | undefined> => {
  const domain = emailDomain(email);
  if (!domain) return undefined;
  const claim = await getItem(table, ssoDomainClaimKey(domain), false);
  if (!claim?.verifiedAt) return undefined;
  const settings = await ssoRepository(table, claim.workspaceId as string).getSsoSettings();
  return settings?.enabled && settings.domains.includes(domain) ? settings : undefined;
};

/** The domain is claimed by another workspace whose settings list it. */
export class SsoDomainTakenError extends Error {
  constructor(readonly domain: string) {
    super(`SSO domain ${domain} belongs to another workspace`);
  }
}

const putClaim = async (
  table: Table,
  domain: string,
  { workspaceId, verifiedAt }: DomainProof,
  condition: string,
  values: Record<string, unknown>,
): Promise<boolean> =>
  putIf(
    table,
    { ...ssoDomainClaimKey(domain), type: 'SSO_DOMAIN_CLAIM', workspaceId, verifiedAt },
    {
      ConditionExpression: condition,
      ExpressionAttributeValues: values,
    },
  );

/** A workspace that proved its domains (sso-domain-proof.ts), and how to ask whether another still does. */
export interface DomainProof {
  workspaceId: string;
  verifiedAt: string;
  /** Whether `owner` still publishes its proof for `domain`: an owner who lost the domain loses the claim. */
  stillProves?: (owner: string, domain: string) => Promise<boolean>;
}

/**
 * Claims a proven domain for a workspace; claiming one's own domain again renews it. Another workspace's
 * claim stands while its settings list the domain, it proved the domain and its proof is still published;
 * otherwise it is stale (a crash between claim and settings, a claim made before proofs, a domain that
 * changed hands) and is taken over, conditionally on its owner, like a service-name claim.
 */
const claimDomain = async (table: Table, domain: string, proof: DomainProof): Promise<void> => {
  const { workspaceId, stillProves } = proof;
  const unclaimedOrOwn = 'attribute_not_exists(pk) OR workspaceId = :workspace';
  if (await putClaim(table, domain, proof, unclaimedOrOwn, { ':workspace': workspaceId })) return;
  const claim = await findDomainClaim(table, domain);
  const owner = claim?.workspaceId;
  const holds =
    owner !== undefined &&
    claim?.verifiedAt !== undefined &&
    (await ssoRepository(table, owner).getSsoSettings())?.domains.includes(domain) &&
    (stillProves === undefined || (await stillProves(owner, domain)));
  if (holds) throw new SsoDomainTakenError(domain);
  const claimed = owner
    ? await putClaim(table, domain, proof, 'workspaceId = :stale', { ':stale': owner })
    : await putClaim(table, domain, proof, unclaimedOrOwn, { ':workspace': workspaceId });
  if (!claimed) throw new SsoDomainTakenError(domain);
};

const releaseDomain = async (table: Table, domain: string, workspaceId: string): Promise<void> => {
  await deleteIf(table, ssoDomainClaimKey(domain), {
    ConditionExpression: 'workspaceId = :workspace',
    ExpressionAttributeValues: { ':workspace': workspaceId },
  });
};

/**
 * Replaces a workspace's SSO settings: claims every listed domain (one workspace per domain), releases
 * the domains the new list drops, then writes the settings. Discovery needs both a claim and settings
 * listing the domain, so a crash part-way never sends anyone to the wrong identity provider.
 */
export const putSsoSettings = async (
  table: Table,
  settings: SsoSettings,
  proof: Omit<DomainProof, 'workspaceId'>,
): Promise<SsoSettings> => {
  const previous = await ssoRepository(table, settings.workspaceId).getSsoSettings();
  for (const domain of settings.domains) {
    await claimDomain(table, domain, { ...proof, workspaceId: settings.workspaceId });
  }
  const dropped = (previous?.domains ?? []).filter((domain) => !settings.domains.includes(domain));
  for (const domain of dropped) await releaseDomain(table, domain, settings.workspaceId);
  await putItem(table, { ...ssoSettingsKey(settings.workspaceId), type: 'SSO_SETTINGS', ...settings });
  return settings;
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const ssoRepository = (table: Table, workspaceId: string) => {
  const getSsoSettings = async (): Promise<SsoSettings | undefined> => {
    const Item = await getItem(table, ssoSettingsKey(workspaceId));
    if (!Item) return undefined;
    const { pk: _pk, sk: _sk, type: _type, ...settings } = Item;
    return settings as unknown as SsoSettings;
  };
  return { getSsoSettings };
};
