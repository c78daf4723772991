import * as z from 'zod/mini';
import { fieldMessages } from '#lib/contract/field-messages.ts';
import { PayloadError, parsePayload } from '#lib/ingestion/payload-error.ts';
import { dateTime, optionalText, senderObject } from '#lib/ingestion/schema-kit.ts';

export const SENDER = 'eventbridge';

/** An EventBridge event as an API destination posts it without an input transformer ("Amazon EventBridge events"). */
const eventSchema = z.object({
  version: optionalText,
  id: z.string().check(z.minLength(1)),
  'detail-type': z.string().check(z.minLength(1)),
  source: z.string().check(z.minLength(1)),
  account: optionalText,
  time: dateTime,
  region: optionalText,
  resources: z.nullish(z.array(z.string())),
  detail: senderObject,
});

/** The envelope's fields as the mappings read them; `time` in ISO 8601. */
export interface AwsEvent {
  id: string;
  detailType: string;
  source: string;
  account: string | undefined;
  /** When AWS says the event happened. */
  time: string;
  region: string | undefined;
  resources: string[];
  detail: Record<string, unknown>;
}

/** What every signal of an AWS event keeps of its envelope, beside what its own mapping adds. */
export const envelopeMetadata = (event: AwsEvent) => ({
  detailType: event.detailType,
  awsSource: event.source,
  account: event.account,
  region: event.region,
  resources: event.resources,
});

export const parseAwsEvent = (body: unknown, receivedAt: Date): AwsEvent => {
  const event = parsePayload(SENDER, eventSchema, body);
  return {
    id: event.id,
    detailType: event['detail-type'],
    source: event.source,
    account: event.account ?? undefined,
    time: event.time ?? receivedAt.toISOString(),
    region: event.region ?? undefined,
    resources: event.resources ?? [],
    detail: event.detail,
  };
};

/** The event's `detail` as its type documents it, or a 400 naming each bad field under `detail.`. */
export const parseDetail = <S extends z.ZodMiniType>(schema: S, event: AwsEvent): z.output<S> => {
  const result = schema.safeParse(event.detail);
  if (!result.success) {
    throw new PayloadError(
      SENDER,
      fieldMessages('body', result.error).map((message) => `detail.${message}`),
    );
  }
  return result.data;
};
