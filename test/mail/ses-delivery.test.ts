import { MessageRejected, SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSesDelivery } from '#lib/ports/mail/ses-delivery.ts';

const ses = mockClient(SESv2Client);
const delivery = createSesDelivery(new SESv2Client({ region: 'eu-west-1' }), () => 'incidents@acme.test');
const message = {
  to: 'ada@example.com',
  subject: 'Your verification code',
  text: 'Your code is 123456.',
  otp: '123456',
};

afterEach(() => {
  ses.reset();
});
// The unit project shares its workers' modules: a class-level mock left in place answers the next file's clients.
afterAll(() => {
  ses.restore();
});

describe('the SES delivery', () => {
  it('sends the message as plain text from the configured sender', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    await delivery.deliver(message);
    expect(ses.commandCalls(SendEmailCommand).map((call) => call.args[0].input)).toEqual([
      {
        FromEmailAddress: 'incidents@acme.test',
        Destination: { ToAddresses: ['ada@example.com'] },
        Content: {
          Simple: {
            Subject: { Data: 'Your verification code', Charset: 'UTF-8' },
            Body: { Text: { Data: 'Your code is 123456.', Charset: 'UTF-8' } },
          },
        },
      },
    ]);
  });

  it('throws a refusal with the addresses SES names reduced to their domains, for the logs', async () => {
    ses.on(SendEmailCommand).rejects(
      new MessageRejected({
        message:
          'Email address is not verified. The following identities failed the check in region EU-WEST-1: ada@example.com, incidents@acme.test',
        $metadata: {},
      }),
    );
    const refusal = await delivery.deliver(message).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(refusal?.name).toBe('MessageRejected');
    expect(refusal?.message).toBe(
      'Email address is not verified. The following identities failed the check in region EU-WEST-1: …@example.com, …@acme.test',
    );
    expect(refusal?.stack).not.toContain('ada@');
  });
});
