import * as z from 'zod';
import { SIGNED_SENDERS } from './webhook-secrets-signature.ts';

export const webhookSecretParams = z.object({
  sender: z.enum(SIGNED_SENDERS).describe('an ingestion sender that signs its deliveries'),
});

export const webhookSecretBody = z.object({
  secret: z
    .string()
    .min(16, 'must be at least 16 characters')
    .max(512, 'must be at most 512 characters')
    .describe("the secret as configured at the sender (code host B: the webhook's secret token)"),
});
