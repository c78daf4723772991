import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { accountKey, workspaceKey } from '#lib/store/keys.ts';
import type { Table } from '#lib/store/table.ts';
import { emailDomain, type SsoSettings } from './sso.ts';

export const ssoSettingsKey = (workspaceId: string) => ({ pk: workspaceKey(workspaceId), sk: 'SSO' });

/**
 * A domain belongs to at most one workspace's SSO. Like an e-mail claim, it is looked up before anyone
 * is signed in, so it lives outside the workspace partitions and holds only the workspace id.
 */
export const ssoDomainClaimKey = (domain: string) => ({ pk: accountKey('SSODOMAIN', encodeURIComponent(domain)), sk: 'SSO' });

export const getSsoSettings = async (table: Table, workspaceId: string): Promise<SsoSettings | undefined> => {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: ssoSettingsKey(workspaceId) }));
  if (!Item) return undefined;
  const { pk: _pk, sk: _sk, type: _type, ...settings } = Item;
  return settings as SsoSettings;
};

/** The enabled SSO settings that cover this address's domain, if any workspace configured them. */
export const findSsoForEmail = async (table: Table, email: string): Promise<SsoSettings | undefined> => {
  const domain = emailDomain(email);
  if (!domain) return undefined;
  const { Item: claim } = await table.doc.send(new GetCommand({ TableName: table.name, Key: ssoDomainClaimKey(domain) }));
  if (!claim) return undefined;
  const settings = await getSsoSettings(table, claim.workspaceId as string);
  return settings?.enabled && settings.domains.includes(domain) ? settings : undefined;
};
