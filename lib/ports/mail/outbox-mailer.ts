import type { Queue } from '../queue/queue.ts';
import type { Mailer } from './mail.ts';

/**
 * The mail port: the message goes to the `mail` queue, the durable outbox the mail worker delivers from with
 * retries, so a refusing mail service never fails a request. A queue that refuses the message throws: whether
 * a lost message may be shrugged off is the caller's to say (`sendOrAskAgain` for requests, a failed delivery
 * for the notification worker).
 */
export const createOutboxMailer = (queue: Queue, appUrl: () => string): Mailer => ({
  get appUrl() {
    return appUrl();
  },
  send: (message) => queue.send('mail', [message]),
});
