import { appendFile, readFile } from 'node:fs/promises';
import type { Clock } from '#lib/ports/clock.ts';
import type { MailDelivery, MailMessage } from '#lib/ports/mail/mail.ts';

export interface SentMail extends MailMessage {
  sentAt: string;
}

export interface Mailbox extends MailDelivery {
  /** Mail delivered to `to` (compared without case), newest first. */
  messagesTo(to: string): SentMail[];
}

/**
 * The local mail service behind the mail worker: instead of sending, it keeps every message, appending
 * it to `file` (JSON lines) when there is one so the mailbox survives a restart like the rest of the data.
 */
export const openMailbox = async (clock: Clock, file: string | undefined): Promise<Mailbox> => {
  const messages: SentMail[] = file ? await readSaved(file) : [];
  return {
    async deliver(message) {
      const sent: SentMail = { ...message, sentAt: clock.now().toISOString() };
      if (file) await appendFile(file, `${JSON.stringify(sent)}\n`);
      messages.push(sent);
    },
    messagesTo(to) {
      const address = to.toLowerCase();
      return messages.filter((message) => message.to.toLowerCase() === address).reverse();
    },
  };
};

const readSaved = async (file: string): Promise<SentMail[]> => {
  try {
    const text = await readFile(file, 'utf8');
    return text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as SentMail);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
};
