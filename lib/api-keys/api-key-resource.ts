import { nullsFor, pick } from '#lib/contract/view-fields.ts';
import type { ApiKey } from './api-key.ts';

/** The API key resource of the spec; never the secret, its hash or the usage-plan mirror. */
export interface ApiKeyResource {
  id: string;
  name: string;
  environment: ApiKey['environment'];
  scopes: ApiKey['scopes'];
  isActive: boolean;
  expiresAt: string | null;
  lastUsedAt: string | null;
  rotatedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const toApiKeyResource = (key: ApiKey): ApiKeyResource => ({
  ...pick(key, ['id', 'name', 'environment', 'scopes', 'isActive', 'createdAt', 'updatedAt']),
  ...nullsFor(key, ['expiresAt', 'lastUsedAt', 'rotatedAt']),
});
