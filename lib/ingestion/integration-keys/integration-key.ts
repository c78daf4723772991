import { hashApiKeySecret, secretMatches } from '#lib/api-keys/api-key.ts';

/**
 * A per-service credential that paging-tool senders carry where they put theirs: a PagerDuty event's
 * `routing_key`, Opsgenie's `Authorization: GenieKey <key>`. It only ingests, into its service.
 */
export interface IntegrationKey {
  id: string;
  workspaceId: string;
  name: string;
  /** The service map's service the key's events are about (their signals' `serviceId`). */
  serviceId: string;
  createdAt: string;
}

/** Recognisable in logs and by secret scanners, like `ims_` API keys. */
const INTEGRATION_KEY_PREFIX = 'imsik_';

/** `imsik_<workspaceId>.<keyId>.<secret>`: one consistent read finds the record; only the secret's hash is kept. */
export const formatIntegrationKey = (workspaceId: string, keyId: string, secret: string): string =>
  `${INTEGRATION_KEY_PREFIX}${workspaceId}.${keyId}.${secret}`;

const PART = /^[A-Za-z0-9_-]+$/;

export const parseIntegrationKey = (raw: string) => {
  if (!raw.startsWith(INTEGRATION_KEY_PREFIX)) return undefined;
  const [workspaceId, keyId, secret, ...rest] = raw.slice(INTEGRATION_KEY_PREFIX.length).split('.');
  if (rest.length > 0 || !workspaceId || !keyId || !secret) return undefined;
  if (![workspaceId, keyId, secret].every((part) => PART.test(part))) return undefined;
  return { workspaceId, keyId, secret };
};

export { hashApiKeySecret as hashIntegrationSecret, secretMatches as integrationSecretMatches };
