import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import type { MailDelivery } from './mail.ts';

/**
 * SES names the refused addresses in its messages (an unverified recipient in the sandbox), and a failed
 * record's error is logged: the same error with every address reduced to its domain.
 */
const withoutAddresses = (error: unknown): Error => {
  const original = error instanceof Error ? error : new Error(String(error));
  const redacted = new Error(original.message.replace(/[^\s@:,;<>()"'[\]]+@/g, '…@'));
  redacted.name = original.name;
  return redacted;
};

export const createSesDelivery = (client: SESv2Client, fromAddress: () => string): MailDelivery => ({
  async deliver(message) {
    try {
      await client.send(
        new SendEmailCommand({
          FromEmailAddress: fromAddress(),
          Destination: { ToAddresses: [message.to] },
          Content: {
            Simple: {
              Subject: { Data: message.subject, Charset: 'UTF-8' },
              Body: { Text: { Data: message.text, Charset: 'UTF-8' } },
            },
          },
        }),
      );
    } catch (error) {
      throw withoutAddresses(error);
    }
  },
});
