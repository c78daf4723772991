import { SESv2Client } from '@aws-sdk/client-sesv2';
import { ENV, requiredEnv } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { createSesDelivery } from './ses-delivery.ts';

/** Delivering e-mail through SES from the configured address: the mail worker's need alone. */
export const mailDelivery: PortNeed = {
  binding: { kind: 'mailDelivery' },
  build: {
    mailDelivery: (env) => createSesDelivery(new SESv2Client({}), () => requiredEnv(env, ENV.mailFrom)),
  },
};
