import type { Clock } from '#lib/ports/clock.ts';
import type { MailDelivery, MailMessage } from '#lib/ports/mail/mail.ts';
import { KEPT_MESSAGES, openKeptMessages } from './kept-messages.ts';

interface SentMail extends MailMessage {
  sentAt: string;
}

export interface Mailbox extends MailDelivery {
  /** Mail delivered to `to` (compared without case), newest first. */
  messagesTo(to: string): SentMail[];
}

/**
 * The local mail service behind the mail worker: instead of sending, it keeps the newest messages
 * (KEPT_MESSAGES), in `file` (JSON lines) too when there is one so the mailbox survives a restart like the
 * rest of the data.
 */
export const openMailbox = async (clock: Clock, file: string | undefined, limit = KEPT_MESSAGES): Promise<Mailbox> => {
  const messages = await openKeptMessages<SentMail>(file, limit);
  return {
    async deliver(message) {
      await messages.add({ ...message, sentAt: clock.now().toISOString() });
    },
    messagesTo(to) {
      const address = to.toLowerCase();
      return messages.newestFirst((message) => message.to.toLowerCase() === address);
    },
  };
};
