/** A text message to one phone number in E.164 form. */
export interface SmsMessage {
  to: string;
  text: string;
}

/** Sends text messages: SNS in AWS, the local SMS outbox locally. Throws when the message is refused. */
export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

/** What logs may say of a number: its country prefix, not the person's number. */
export const numberPrefix = (to: string): string => to.slice(0, 3);
