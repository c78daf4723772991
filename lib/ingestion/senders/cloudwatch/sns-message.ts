import * as z from 'zod/mini';
import { parsePayload } from '#lib/ingestion/payload-error.ts';
import { optionalText } from '#lib/ingestion/schema-kit.ts';

const SENDER = 'cloudwatch';

/**
 * An Amazon SNS message as an HTTPS subscription receives it (the "HTTP/HTTPS notification, subscription
 * confirmation and unsubscribe confirmation JSON formats" of the SNS developer guide). The signature fields
 * are optional here: a message without them is refused as unsigned (401), not as malformed (400).
 */
const snsMessageSchema = z.object({
  Type: z.enum(['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation']),
  MessageId: z.string().check(z.minLength(1)),
  TopicArn: z.string().check(z.minLength(1)),
  Message: z.string(),
  Timestamp: z.string().check(z.minLength(1)),
  Subject: optionalText,
  Token: optionalText,
  SubscribeURL: optionalText,
  UnsubscribeURL: optionalText,
  SignatureVersion: optionalText,
  Signature: optionalText,
  SigningCertURL: optionalText,
});

export type SnsMessage = z.output<typeof snsMessageSchema>;

/** The body as an SNS message, or a 400 naming each field it lacks. */
export const parseSnsMessage = (body: unknown): SnsMessage => parsePayload(SENDER, snsMessageSchema, body);

/** The fields SNS signs, in its order, per type; `Subject` only when the notification has one. */
const SIGNED_FIELDS = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
} as const satisfies Record<SnsMessage['Type'], readonly (keyof SnsMessage)[]>;

/**
 * The string SNS signs ("Verifying the signatures of Amazon SNS messages"): each field's name and value, each
 * followed by a newline. A field the message lacks is left out, so a message missing a signed field fails to
 * verify rather than verifying something else.
 */
export const stringToSign = (message: SnsMessage): string =>
  SIGNED_FIELDS[message.Type]
    .flatMap((field) => {
      const value = message[field];
      return typeof value === 'string' ? [`${field}\n${value}\n`] : [];
    })
    .join('');
