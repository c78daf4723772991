import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { compact } from '#lib/ingestion/schema-kit.ts';
import { severityFromLevel } from '#lib/ingestion/severity.ts';
import type { SignalSeverity } from '#lib/signals/signal-event.ts';

type AlarmStateValue = 'ALARM' | 'OK' | 'INSUFFICIENT_DATA';

/**
 * A CloudWatch alarm's state change as both ways of hearing it tell it: the SNS notification of an alarm action
 * (`/ingestion/cloudwatch`) and EventBridge's "CloudWatch Alarm State Change" (`/ingestion/eventbridge`).
 */
export interface AlarmChange {
  /** Absent from notifications of alarms older than the field; then the account and name identify the alarm. */
  arn: string | undefined;
  name: string;
  description: string | undefined;
  account: string | undefined;
  region: string | undefined;
  state: AlarmStateValue;
  previousState: string | undefined;
  reason: string | undefined;
  /** ISO 8601. */
  changedAt: string | undefined;
  metric: {
    name: string | undefined;
    namespace: string | undefined;
    dimensions: Record<string, string>;
    statistic: string | undefined;
    period: number | undefined;
  };
  threshold: number | undefined;
  comparisonOperator: string | undefined;
}

/** `service=checkout` (or `service: checkout`) in an alarm's description: the team naming the service outright. */
const DESCRIBED_SERVICE = /\bservice\s*[=:]\s*([\w.-]+)/i;
/** `severity=critical` in the description; alarms carry no severity of their own. */
const DESCRIBED_SEVERITY = /\bseverity\s*[=:]\s*(\w+)/i;
/** Dimensions that name a service: ECS's `ServiceName`, and the `Service` a team puts on its own metrics. */
const SERVICE_DIMENSIONS = ['ServiceName', 'Service', 'service'];

/**
 * The alarm's service (docs/ingestion.md, "CloudWatch alarms"): `service=<name>` in its description, else a
 * `ServiceName` or `Service` dimension of its metric, else the part of its name before the first `/`
 * (`checkout/high-latency`). None when nothing names one: the name alone is too often a generated one.
 */
const alarmService = (alarm: Pick<AlarmChange, 'description' | 'metric' | 'name'>): string | undefined => {
  const described = alarm.description ? DESCRIBED_SERVICE.exec(alarm.description)?.[1] : undefined;
  if (described) return described;
  const dimension = SERVICE_DIMENSIONS.map((name) => alarm.metric.dimensions[name]).find(Boolean);
  if (dimension) return dimension;
  const slash = alarm.name.indexOf('/');
  return slash > 0 ? alarm.name.slice(0, slash) : undefined;
};

const severityOf = (description: string | undefined): SignalSeverity =>
  severityFromLevel(description ? DESCRIBED_SEVERITY.exec(description)?.[1] : undefined) ?? 'MEDIUM';

/**
 * ALARM triggers and OK resolves the alarm's signal. INSUFFICIENT_DATA is kept as a LOW record and leaves an
 * open signal as it is: missing data is no recovery (the metric may have stopped because what it measures
 * died), and no failure either (a scaled-in resource stops its metrics too); an alarm's `TreatMissingData`
 * is where a team decides which it is. Its type is its own, so it never merges into the alarm's problem.
 */
const OUTCOMES = {
  ALARM: { action: 'trigger', type: 'alarm' },
  OK: { action: 'resolve', type: 'alarm' },
  INSUFFICIENT_DATA: { action: 'record', type: 'alarm_insufficient_data' },
} as const;

/** The alarm ARN is the fingerprint, so ALARM and the OK after it meet on one signal. */
export const alarmEvent = (source: string, alarm: AlarmChange, receivedAt: Date): NormalizedEvent => {
  const outcome = OUTCOMES[alarm.state];
  return {
    signal: {
      name: alarm.name,
      source,
      type: outcome.type,
      severity: outcome.action === 'record' ? 'LOW' : severityOf(alarm.description),
      serviceId: alarmService(alarm),
      metadata: compact({
        state: alarm.state,
        previousState: alarm.previousState,
        reason: alarm.reason,
        description: alarm.description,
        alarmArn: alarm.arn,
        account: alarm.account,
        region: alarm.region,
        metricName: alarm.metric.name,
        namespace: alarm.metric.namespace,
        dimensions: Object.keys(alarm.metric.dimensions).length > 0 ? alarm.metric.dimensions : undefined,
        statistic: alarm.metric.statistic,
        period: alarm.metric.period,
        threshold: alarm.threshold,
        comparisonOperator: alarm.comparisonOperator,
      }),
      triggeredAt: alarm.changedAt ?? receivedAt.toISOString(),
    },
    fingerprint: alarm.arn ?? fingerprintOf(alarm.account ?? '', alarm.name),
    action: outcome.action,
  };
};
