import * as z from 'zod/mini';
import { alarmEvent } from '../cloudwatch/alarm.ts';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { optionalDateTime, optionalText } from '#lib/ingestion/schema-kit.ts';
import { storableNumber } from '#lib/store/stored-json.ts';
import { type AwsEvent, parseDetail, SENDER } from './aws-event.ts';

const stateSchema = z.object({
  value: z.enum(['ALARM', 'OK', 'INSUFFICIENT_DATA']),
  reason: optionalText,
  reasonData: optionalText,
  timestamp: optionalDateTime,
});

/** "CloudWatch Alarm State Change": a metric alarm's first metric names the metric; a composite alarm has none. */
const alarmDetail = z.object({
  alarmName: z.string().check(z.minLength(1)),
  state: stateSchema,
  previousState: z.nullish(z.object({ value: optionalText })),
  configuration: z.nullish(
    z.object({
      description: optionalText,
      metrics: z.nullish(
        z.array(
          z.object({
            metricStat: z.nullish(
              z.object({
                metric: z.nullish(
                  z.object({
                    name: optionalText,
                    namespace: optionalText,
                    dimensions: z.nullish(z.record(z.string(), z.string())),
                  }),
                ),
                period: z.nullish(storableNumber),
                stat: optionalText,
              }),
            ),
          }),
        ),
      ),
    }),
  ),
});

/** The threshold: the event states it only inside `reasonData`, the JSON text CloudWatch explains the state with. */
const thresholdOf = (reasonData: string | null | undefined): number | undefined => {
  if (!reasonData) return undefined;
  try {
    const threshold = (JSON.parse(reasonData) as { threshold?: unknown }).threshold;
    return typeof threshold === 'number' && Number.isFinite(threshold) ? threshold : undefined;
  } catch {
    return undefined;
  }
};

/** The same signal an SNS alarm notification makes (lib/ingestion/cloudwatch/alarm.ts), the alarm ARN its fingerprint. */
export const alarmStateChange = (event: AwsEvent, receivedAt: Date): NormalizedEvent => {
  const detail = parseDetail(alarmDetail, event);
  const stat = detail.configuration?.metrics?.find((metric) => metric.metricStat)?.metricStat;
  return alarmEvent(
    SENDER,
    {
      arn: event.resources.find((arn) => arn.includes(':alarm:')),
      name: detail.alarmName,
      description: detail.configuration?.description ?? undefined,
      account: event.account,
      region: event.region,
      state: detail.state.value,
      previousState: detail.previousState?.value ?? undefined,
      reason: detail.state.reason ?? undefined,
      changedAt: detail.state.timestamp ?? event.time,
      metric: {
        name: stat?.metric?.name ?? undefined,
        namespace: stat?.metric?.namespace ?? undefined,
        dimensions: stat?.metric?.dimensions ?? {},
        statistic: stat?.stat ?? undefined,
        period: stat?.period ?? undefined,
      },
      threshold: thresholdOf(detail.state.reasonData),
      comparisonOperator: undefined,
    },
    receivedAt,
  );
};
