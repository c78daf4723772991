/** An outgoing e-mail; `otp` and `token` are the machine-readable parts the local mailbox exposes. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  otp?: string;
  token?: string;
}

export interface Mailer {
  /** Where links in messages point: the app's base URL, without a trailing slash. */
  readonly appUrl: string;
  send(message: MailMessage): Promise<void>;
}
