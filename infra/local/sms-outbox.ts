import type { Clock } from '#lib/ports/clock.ts';
import type { SmsMessage, SmsSender } from '#lib/ports/sms/sms.ts';
import { KEPT_MESSAGES, openKeptMessages } from './kept-messages.ts';

interface SentSms extends SmsMessage {
  sentAt: string;
}

export interface SmsOutbox extends SmsSender {
  /** Text messages sent to the number, newest first. */
  messagesTo(to: string): SentSms[];
}

/** The local stand-in for SNS's SMS: keeps the newest messages (KEPT_MESSAGES), in `file` (JSON lines) when there is one. */
export const openSmsOutbox = async (
  clock: Clock,
  file: string | undefined,
  limit = KEPT_MESSAGES,
): Promise<SmsOutbox> => {
  const messages = await openKeptMessages<SentSms>(file, limit);
  return {
    async send(message) {
      await messages.add({ ...message, sentAt: clock.now().toISOString() });
    },
    messagesTo(to) {
      return messages.newestFirst((message) => message.to === to.trim());
    },
  };
};
