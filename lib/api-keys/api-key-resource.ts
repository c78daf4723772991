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
  id: key.id,
  name: key.name,
  environment: key.environment,
  scopes: key.scopes,
  isActive: key.isActive,
  expiresAt: key.expiresAt ?? null,
  lastUsedAt: key.lastUsedAt ?? null,
  rotatedAt: key.rotatedAt ?? null,
  createdAt: key.createdAt,
  updatedAt: key.updatedAt,
});
