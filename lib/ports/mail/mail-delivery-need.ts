import { ENV, requiredEnv } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { newAwsClient } from '../aws-client.ts';

/** Delivering e-mail through SES from the configured address: the mail worker's need alone. */
export const mailDelivery: PortNeed = {
  binding: { kind: 'mailDelivery' },
  build: {
    mailDelivery: (env) => {
      const ses = onFirstUse(async () => {
        const [{ SESv2Client }, { createSesDelivery }] = await Promise.all([
          import('@aws-sdk/client-sesv2'),
          import('./ses-delivery.ts'),
        ]);
        return createSesDelivery(newAwsClient(SESv2Client, {}), () => requiredEnv(env, ENV.mailFrom));
      });
      return { deliver: async (message) => (await ses()).deliver(message) };
    },
  },
};
