/** A text message to one phone number in E.164 form. */
export interface SmsMessage {
  to: string;
  text: string;
}

/** Sends text messages: SNS in AWS, the local SMS outbox locally. Throws when the message is refused. */
export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}
