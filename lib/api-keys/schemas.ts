import * as z from 'zod';
import { KEY_SCOPES } from '#lib/identity/caller.ts';
import { API_KEY_ENVIRONMENTS } from './api-key.ts';

const keyName = z.string().trim().min(1).max(100);

/** A key id is a ULID; anything longer cannot name a key, and DynamoDB keys have a size limit. */
export const apiKeyIdParams = z.object({ id: z.string().min(1).max(64) });

export const createApiKeyBody = z.object({
  name: keyName,
  environment: z.enum(API_KEY_ENVIRONMENTS),
  /** At least one: a key without scopes could call nothing. Duplicates are dropped. */
  scopes: z.array(z.enum(KEY_SCOPES)).min(1),
  /** ISO 8601 with a zone (`Z` or an offset); it must lie in the future. Omitted or null: never expires. */
  expiresAt: z.iso.datetime({ offset: true }).nullable().optional(),
});
export type CreateApiKeyInput = z.output<typeof createApiKeyBody>;

export const updateApiKeyBody = z
  .object({ name: keyName.optional(), isActive: z.boolean().optional() })
  .refine((body) => body.name !== undefined || body.isActive !== undefined, {
    message: 'Provide name, isActive or both',
  });
export type UpdateApiKeyInput = z.output<typeof updateApiKeyBody>;
