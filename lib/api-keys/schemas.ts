import * as z from 'zod/mini';
import { KEY_SCOPES } from '#lib/identity/caller.ts';
import { API_KEY_ENVIRONMENTS } from './api-key.ts';
import { nullableText } from '#lib/contract/response-fields.ts';

const keyName = z.string().check(z.trim(), z.minLength(1), z.maxLength(100));

/** A key id is a ULID; anything longer cannot name a key, and DynamoDB keys have a size limit. */
export const apiKeyIdParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });

export const createApiKeyBody = z.object({
  name: keyName,
  environment: z.enum(API_KEY_ENVIRONMENTS),
  /** At least one: a key without scopes could call nothing. Duplicates are dropped. */
  scopes: z.array(z.enum(KEY_SCOPES)).check(z.minLength(1)),
  /** ISO 8601 with a zone (`Z` or an offset); it must lie in the future. Omitted or null: never expires. */
  expiresAt: z.optional(z.nullable(z.iso.datetime({ offset: true }))),
});
export type CreateApiKeyInput = z.output<typeof createApiKeyBody>;

export const updateApiKeyBody = z.object({ name: z.optional(keyName), isActive: z.optional(z.boolean()) }).check(
  z.refine((body) => body.name !== undefined || body.isActive !== undefined, {
    message: 'Provide name, isActive or both',
  }),
);
export type UpdateApiKeyInput = z.output<typeof updateApiKeyBody>;

/** The API key resource (`toApiKeyResource`): never the secret, which only create and rotate answer. */
export const apiKeyData = z.object({
  id: z.string(),
  name: z.string(),
  environment: z.enum(API_KEY_ENVIRONMENTS),
  scopes: z.array(z.enum(KEY_SCOPES)),
  isActive: z.boolean(),
  expiresAt: nullableText,
  lastUsedAt: nullableText,
  rotatedAt: nullableText,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const createdApiKeyData = z.object({ ...apiKeyData.shape, key: z.string() });
export const rotatedApiKeyData = z.object({ id: z.string(), key: z.string() });
