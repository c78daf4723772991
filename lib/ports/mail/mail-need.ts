import { ENV, requiredEnv } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { sqsQueueOf } from '../queue/queue-need.ts';
import { createOutboxMailer } from './outbox-mailer.ts';

/** Sending e-mail, that is putting it on the `mail` queue, with links to the configured app. */
export const mail: PortNeed = {
  binding: { kind: 'mail' },
  build: {
    mail: (env) => createOutboxMailer(sqsQueueOf(env, ['mail']), () => requiredEnv(env, ENV.appUrl)),
  },
};
