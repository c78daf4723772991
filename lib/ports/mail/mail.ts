import * as z from 'zod/mini';

/**
 * An outgoing e-mail, also the body of a `mail` queue message; `otp` and `token` are the machine-readable
 * parts the local mailbox exposes.
 */
const mailMessage = z.object({
  to: z.string().check(z.minLength(1)),
  subject: z.string(),
  text: z.string(),
  otp: z.optional(z.string()),
  token: z.optional(z.string()),
});

export type MailMessage = z.output<typeof mailMessage>;

/** The message of a queue record; a body that is not one throws, so the record ends in the dead-letter queue. */
export const parseMailMessage = (body: string): MailMessage => mailMessage.parse(JSON.parse(body));

/** The senders' side of e-mail: messages handed to the outbox, delivered later by the mail worker. */
export interface Mailer {
  /** Where links in messages point: the app's base URL, without a trailing slash. */
  readonly appUrl: string;
  /**
   * Puts the message on the outbox, throwing when the outbox refuses it. The caller decides what a lost
   * message means: a request whose data is written shrugs it off (`sendOrAskAgain`), a notification delivery
   * is recorded FAILED and tried again.
   */
  send(message: MailMessage): Promise<void>;
}

/** The mail worker's side: hands one message to the mail service, throwing when it is refused. */
export interface MailDelivery {
  deliver(message: MailMessage): Promise<void>;
}
