import { createHash } from 'node:crypto';
import type { Network } from '#lib/ports/network/network.ts';

/**
 * Who may send a domain's people to an identity provider: the workspace that publishes its token in the
 * domain's DNS, which only the domain's owner can do. The token is derived from the workspace id, so it
 * needs no storage and proves nothing for any other workspace; it is no secret (it sits in public DNS).
 */
const RECORD_PREFIX = '_incident-service-sso';
const VALUE_PREFIX = 'incident-service-sso=';

export const ssoDomainToken = (workspaceId: string): string =>
  createHash('sha256').update(`sso-domain:${workspaceId}`).digest('base64url').slice(0, 32);

/** The TXT record a workspace publishes for each of its SSO domains. */
export const ssoDomainRecord = (workspaceId: string, domain: string) => ({
  name: `${RECORD_PREFIX}.${domain}`,
  value: `${VALUE_PREFIX}${ssoDomainToken(workspaceId)}`,
});

/** What GET and PUT answer, so an ADMIN can publish the record before listing the domain. */
export const ssoDomainVerification = (workspaceId: string) => ({
  txtRecordName: `${RECORD_PREFIX}.<domain>`,
  txtRecordValue: `${VALUE_PREFIX}${ssoDomainToken(workspaceId)}`,
});

/** Whether the domain's DNS publishes the workspace's token now; a resolver failure proves nothing. */
export const provesSsoDomain = async (network: Network, workspaceId: string, domain: string): Promise<boolean> => {
  const { name, value } = ssoDomainRecord(workspaceId, domain);
  try {
    return (await network.resolveTxt(name)).some((record) => record.trim() === value);
  } catch {
    return false;
  }
};

/**
 * Mail domains anyone can have an address at: nobody proves a workspace owns them, so SSO for them would
 * send strangers to one workspace's identity provider. Refused whatever DNS says.
 */
export const PUBLIC_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  '126.com',
  '163.com',
  'aim.com',
  'aol.com',
  'fastmail.com',
  'gmail.com',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'googlemail.com',
  'hey.com',
  'hotmail.com',
  'icloud.com',
  'live.com',
  'mac.com',
  'mail.com',
  'mail.ru',
  'me.com',
  'msn.com',
  'outlook.com',
  'pm.me',
  'proton.me',
  'protonmail.com',
  'qq.com',
  'tuta.io',
  'tutanota.com',
  'web.de',
  'yahoo.com',
  'yandex.com',
  'yandex.ru',
  'ymail.com',
  'zoho.com',
]);
