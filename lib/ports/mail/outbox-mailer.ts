import { log } from '#lib/log/logger.ts';
import type { Queue } from '../queue/queue.ts';
import { recipientDomain, type Mailer } from './mail.ts';

/**
 * The mail port of the API functions: the message goes to the `mail` queue, the durable outbox the mail
 * worker delivers from with retries, so a refusing mail service never fails a request.
 */
export const createOutboxMailer = (queue: Queue, appUrl: () => string): Mailer => ({
  get appUrl() {
    return appUrl();
  },
  async send(message) {
    try {
      await queue.send('mail', [message]);
    } catch (error) {
      log.error('mail not queued; the recipient can ask for it again', {
        recipientDomain: recipientDomain(message.to),
        error,
      });
    }
  },
});
