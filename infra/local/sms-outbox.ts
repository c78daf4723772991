import { appendFile, readFile } from 'node:fs/promises';
import type { Clock } from '#lib/ports/clock.ts';
import type { SmsMessage, SmsSender } from '#lib/ports/sms/sms.ts';

export interface SentSms extends SmsMessage {
  sentAt: string;
}

export interface SmsOutbox extends SmsSender {
  /** Text messages sent to the number, newest first. */
  messagesTo(to: string): SentSms[];
}

/** The local stand-in for SNS's SMS: keeps every message, in `file` (JSON lines) when there is one. */
export const openSmsOutbox = async (clock: Clock, file: string | undefined): Promise<SmsOutbox> => {
  const messages: SentSms[] = file ? await readSaved(file) : [];
  return {
    async send(message) {
      const sent: SentSms = { ...message, sentAt: clock.now().toISOString() };
      if (file) await appendFile(file, `${JSON.stringify(sent)}\n`);
      messages.push(sent);
    },
    messagesTo(to) {
      return messages.filter((message) => message.to === to.trim()).reverse();
    },
  };
};

const readSaved = async (file: string): Promise<SentSms[]> => {
  try {
    return (await readFile(file, 'utf8'))
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as SentSms);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
};
