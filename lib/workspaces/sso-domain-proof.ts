import { createHash } from 'node:crypto';
import type { Network } from '#lib/ports/network/network.ts';

/**
 * Who may send a domain's people to an identity provider: the workspace that publishes its token in the
 * domain's DNS, which only the domain's owner can do. The token is derived from the workspace id, so it
 * needs no storage and proves nothing for any other workspace; it is no secret (it sits in public DNS).
 */
const RECORD_PREFIX = '_incident-service-sso';
const VALUE_PREFIX = 'incident-service-sso=';

const ssoDomainToken = (workspaceId: string): string =>
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
