import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import type { Mailer } from './mail.ts';

export const createSesMailer = (client: SESv2Client, fromAddress: () => string, appUrl: () => string): Mailer => ({
  get appUrl() {
    return appUrl();
  },
  async send(message) {
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
  },
});
