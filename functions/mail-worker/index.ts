import { createQueueHandler } from '#lib/app/queue-handler.ts';
import { log } from '#lib/log/logger.ts';
import { parseMailMessage } from '#lib/ports/mail/mail.ts';
import { recipientDomain } from '#lib/ports/mail/recipient-domain.ts';
import { mailWorker } from '#lib/workers/mail-worker.ts';

/**
 * Consumer of the `mail` queue: delivers each message on its own, so a refused one is retried (and after
 * the queue's receive limit set aside in the dead-letter queue) without holding back the others. One
 * after another, as SES's sending rate (one a second in the sandbox) wants. A redelivered message is
 * sent again: a second copy of a code beats a lost one.
 */
export const handler = createQueueHandler(mailWorker, async (ports, record) => {
  const message = parseMailMessage(record.body);
  await ports.mailDelivery.deliver(message);
  log.info('mail delivered', { recipientDomain: recipientDomain(message.to) });
});
