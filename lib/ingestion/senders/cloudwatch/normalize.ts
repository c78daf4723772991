import * as z from 'zod/mini';
import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import { storableNumber } from '#lib/store/stored-json.ts';
import type { NormalizedEvent, Normalizer } from '#lib/ingestion/normalized-event.ts';
import { PayloadError } from '#lib/ingestion/payload-error.ts';
import { fieldMessages } from '#lib/contract/field-messages.ts';
import { compact, optionalDateTime, optionalText } from '#lib/ingestion/schema-kit.ts';
import { alarmEvent, type AlarmChange } from './alarm.ts';
import { parseSnsMessage, type SnsMessage } from './sns-message.ts';

const SENDER = 'cloudwatch';

/**
 * The `Message` of an alarm action's notification ("Using Amazon CloudWatch alarms", the SNS message format):
 * a metric alarm carries `Trigger` with one metric (or `Metrics` for metric math); a composite alarm none.
 */
const alarmMessageSchema = z.object({
  AlarmName: z.string().check(z.minLength(1)),
  AlarmDescription: optionalText,
  AWSAccountId: optionalText,
  NewStateValue: z.enum(['ALARM', 'OK', 'INSUFFICIENT_DATA']),
  NewStateReason: optionalText,
  StateChangeTime: optionalDateTime,
  Region: optionalText,
  AlarmArn: optionalText,
  OldStateValue: optionalText,
  Trigger: z.nullish(
    z.object({
      MetricName: optionalText,
      Namespace: optionalText,
      Statistic: optionalText,
      ExtendedStatistic: optionalText,
      Dimensions: z.nullish(z.array(z.object({ name: z.string(), value: z.string() }))),
      Period: z.nullish(storableNumber),
      ComparisonOperator: optionalText,
      Threshold: z.nullish(storableNumber),
    }),
  ),
});

const isAlarm = (message: unknown): boolean =>
  typeof message === 'object' && message !== null && 'AlarmName' in message && 'NewStateValue' in message;

const jsonOrText = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const alarmOf = (message: unknown): AlarmChange => {
  const result = alarmMessageSchema.safeParse(message);
  if (!result.success)
    throw new PayloadError(
      SENDER,
      fieldMessages('body', result.error).map((m) => `Message.${m}`),
    );
  const alarm = result.data;
  const trigger = alarm.Trigger;
  return {
    arn: alarm.AlarmArn ?? undefined,
    name: alarm.AlarmName,
    description: alarm.AlarmDescription ?? undefined,
    account: alarm.AWSAccountId ?? undefined,
    region: alarm.Region ?? undefined,
    state: alarm.NewStateValue,
    previousState: alarm.OldStateValue ?? undefined,
    reason: alarm.NewStateReason ?? undefined,
    changedAt: alarm.StateChangeTime ?? undefined,
    metric: {
      name: trigger?.MetricName ?? undefined,
      namespace: trigger?.Namespace ?? undefined,
      dimensions: Object.fromEntries((trigger?.Dimensions ?? []).map(({ name, value }) => [name, value])),
      statistic: trigger?.Statistic ?? trigger?.ExtendedStatistic ?? undefined,
      period: trigger?.Period ?? undefined,
    },
    threshold: trigger?.Threshold ?? undefined,
    comparisonOperator: trigger?.ComparisonOperator ?? undefined,
  };
};

/** Anything else published to the topic: kept as a record, so a team sees it arrived and nothing is lost. */
const otherNotification = (sns: SnsMessage, message: unknown, receivedAt: Date): NormalizedEvent => ({
  signal: {
    name: sns.Subject || `Notification from ${sns.TopicArn}`,
    source: SENDER,
    type: 'notification',
    severity: 'LOW',
    metadata: compact({ topicArn: sns.TopicArn, subject: sns.Subject, message }),
    triggeredAt: Number.isNaN(Date.parse(sns.Timestamp))
      ? receivedAt.toISOString()
      : new Date(sns.Timestamp).toISOString(),
  },
  fingerprint: fingerprintOf(sns.TopicArn, sns.Subject ?? ''),
  action: 'record',
});

/**
 * A verified SNS message (lib/ingestion/cloudwatch/receive-sns.ts checks the signature first): an alarm's
 * notification is its state change; confirmations carry no event (the route answers them before this).
 */
export const normalizeCloudwatch: Normalizer = (body, _headers, receivedAt) => {
  const sns = parseSnsMessage(body);
  if (sns.Type !== 'Notification') return [];
  const message = jsonOrText(sns.Message);
  const event = isAlarm(message)
    ? alarmEvent(SENDER, alarmOf(message), receivedAt)
    : otherNotification(sns, message, receivedAt);
  return [{ ...event, signal: { ...event.signal, metadata: { ...event.signal.metadata, topicArn: sns.TopicArn } } }];
};
