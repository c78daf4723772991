import { SESv2Client } from '@aws-sdk/client-sesv2';
import { ENV, requiredEnv } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { createSesMailer } from './ses-mailer.ts';

/** Sending e-mail from the configured address, with links to the configured app. */
export const mail: PortNeed = {
  binding: { kind: 'mail' },
  build: {
    mail: (env) =>
      createSesMailer(
        new SESv2Client({}),
        () => requiredEnv(env, ENV.mailFrom),
        () => requiredEnv(env, ENV.appUrl),
      ),
  },
};
