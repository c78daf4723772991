import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
import type { SmsSender } from './sms.ts';

/** Transactional SMS straight to the number (no topic), as SNS's direct publish does. */
export const createSnsSms = (client: SNSClient): SmsSender => ({
  async send({ to, text }) {
    await client.send(
      new PublishCommand({
        PhoneNumber: to,
        Message: text,
        MessageAttributes: {
          'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' },
        },
      }),
    );
  },
});
