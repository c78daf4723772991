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

/** The enabled SSO settings that cover this address's domain, if any workspace configured them. */
export const findSsoForEmail = async (table: Table, email: string): Promise<SsoSettings | undefined> => {
  const domain = emailDomain(email);
  if (!domain) return undefined;
  const claim = await getItem(table, ssoDomainClaimKey(domain), false);
  if (!claim) return undefined;
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
  workspaceId: string,
  condition: string,
  values: Record<string, unknown>,
): Promise<boolean> =>
  putIf(
    table,
    { ...ssoDomainClaimKey(domain), type: 'SSO_DOMAIN_CLAIM', workspaceId },
    {
      ConditionExpression: condition,
      ExpressionAttributeValues: values,
    },
  );

/**
 * Claims a domain for a workspace; claiming one's own domain again is a no-op. A claim whose workspace's
 * settings do not list the domain is stale (a crash between claim and settings, or a put that failed on
 * a later domain) and is taken over, conditionally on its owner, like a service-name claim.
 */
const claimDomain = async (table: Table, domain: string, workspaceId: string): Promise<void> => {
  const unclaimedOrOwn = 'attribute_not_exists(pk) OR workspaceId = :workspace';
  if (await putClaim(table, domain, workspaceId, unclaimedOrOwn, { ':workspace': workspaceId })) return;
  const claim = await getItem(table, ssoDomainClaimKey(domain));
  const owner = claim?.workspaceId as string | undefined;
  if (owner && (await ssoRepository(table, owner).getSsoSettings())?.domains.includes(domain))
    throw new SsoDomainTakenError(domain);
  const claimed = owner
    ? await putClaim(table, domain, workspaceId, 'workspaceId = :stale', { ':stale': owner })
    : await putClaim(table, domain, workspaceId, unclaimedOrOwn, { ':workspace': workspaceId });
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
export const putSsoSettings = async (table: Table, settings: SsoSettings): Promise<SsoSettings> => {
  const previous = await ssoRepository(table, settings.workspaceId).getSsoSettings();
  for (const domain of settings.domains) await claimDomain(table, domain, settings.workspaceId);
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
