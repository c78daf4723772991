import * as z from 'zod/mini';

/** Request and response schemas of the integration-key routes, apart from the key's code so the console can type them. */
export const integrationKeyBody = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  serviceId: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
});
export type IntegrationKeyInput = z.output<typeof integrationKeyBody>;

export const integrationKeyParams = z.object({ keyId: z.string().check(z.minLength(1), z.maxLength(64)) });

export const integrationKeyData = z.object({
  id: z.string(),
  name: z.string(),
  serviceId: z.string(),
  createdAt: z.string(),
});

/** Only the create answer carries the key itself; it is never shown again. */
export const createdIntegrationKeyData = z.extend(integrationKeyData, { key: z.string() });
