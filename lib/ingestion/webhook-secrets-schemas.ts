import * as z from 'zod/mini';
import { SIGNED_SENDERS } from './senders/index.ts';

export const webhookSecretParams = z.object({
  sender: z.enum(SIGNED_SENDERS).check(z.describe('an ingestion sender that signs its deliveries')),
});

export const webhookSecretBody = z.object({
  secret: z
    .string()
    .check(
      z.minLength(16, 'must be at least 16 characters'),
      z.maxLength(512, 'must be at most 512 characters'),
      z.describe("the secret as configured at the sender (code host B: the webhook's secret token)"),
    ),
});

/** A sender's secret as the API shows it: whether one is set, never the secret. */
export const webhookSecretData = z.object({
  sender: z.enum(SIGNED_SENDERS),
  signatureHeader: z.string(),
  configured: z.boolean(),
  setAt: z.nullable(z.string()),
  previousValidUntil: z.nullable(z.string()),
});
