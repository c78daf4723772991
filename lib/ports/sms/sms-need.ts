import type { PortNeed } from '../need.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { newAwsClient } from '../aws-client.ts';

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
        // A text that SNS does not take within 3 s fails its delivery, which is retried, rather than the batch.
        return createSnsSms(newAwsClient(SNSClient, { requestHandler: { requestTimeout: 3_000 } }));
      });
      return { send: async (message) => (await sns()).send(message) };
    },
  },
};
