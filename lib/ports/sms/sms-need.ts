import type { PortNeed } from '../need.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';

/** Sending text messages to phone numbers: the notification worker's need alone. */
export const smsDelivery: PortNeed = {
  binding: { kind: 'sms' },
  build: {
    sms: () => {
      const sns = onFirstUse(async () => {
        const [{ SNSClient }, { createSnsSms }] = await Promise.all([
          import('@aws-sdk/client-sns'),
          import('./sns-sms.ts'),
        ]);
        return createSnsSms(new SNSClient({}));
      });
      return { send: async (message) => (await sns()).send(message) };
    },
  },
};
