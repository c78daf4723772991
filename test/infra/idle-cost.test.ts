import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inspectApp, PROD_CONTEXT } from './template.ts';

/**
 * What a stage costs a month with no traffic at all, at us-east-1 list prices, read from the prod template:
 * everything billed by the month rather than by use. The README's table is this table, so it cannot drift.
 */
const PRICES = {
  /** A standard-resolution alarm, per metric it watches; the first ten alarm metrics of an account are free. */
  alarmMetric: 0.1,
  freeAlarmMetrics: 10,
  dashboard: 3,
  kmsKey: 1,
  secret: 0.4,
  /** SQS requests beyond the first million a month. */
  sqsPerMillion: 0.4,
  freeSqsRequests: 1_000_000,
  lambdaPerMillion: 0.2,
  /** Arm, per GB-second. */
  lambdaGbSecond: 0.0000133334,
};
/** Lambda's pollers long-poll an empty queue with five connections, each a 20-second receive: 648,000 a month. */
const POLLS_PER_QUEUE = 5 * 3 * 60 * 24 * 30;
/** What one sweep run takes, for its duration charge: a query or two, well under 100 ms. */
const SWEEP_SECONDS = 0.1;
const MINUTES_A_MONTH = 60 * 24 * 30;

type Resource = { Type: string; Properties: Record<string, any> };

/** The alarm's metrics: one, or each metric a math expression reads. */
const metricsOf = (alarm: Resource): number =>
  alarm.Properties.Metrics ? alarm.Properties.Metrics.filter((metric: any) => metric.MetricStat).length : 1;

/** Runs a month of a rule's schedule: `rate(N minutes)`, or a daily cron. */
const runsOf = (expression: string): number => {
  const rate = /^rate\((\d+) minutes?\)$/.exec(expression);
  if (rate) return MINUTES_A_MONTH / Number(rate[1]);
  if (/^cron\(\d+ \d+ \* \* \? \*\)$/.test(expression)) return 30;
  throw new Error(`no monthly count for the schedule ${expression}`);
};

const dollars = (amount: number): string => `$${amount.toFixed(2)}`;

const idleCost = (resources: Resource[]) => {
  const ofType = (type: string) => resources.filter(({ Type }) => Type === type);
  const alarms = ofType('AWS::CloudWatch::Alarm');
  const alarmMetrics = alarms.reduce((sum, alarm) => sum + metricsOf(alarm), 0);
  const pollers = ofType('AWS::Lambda::EventSourceMapping').length;
  const schedules = ofType('AWS::Events::Rule').filter(({ Properties }) => Properties.ScheduleExpression);
  const runs = schedules.reduce((sum, rule) => sum + runsOf(rule.Properties.ScheduleExpression), 0);
  const memoryGb = 1;
  const rows = [
    {
      item: `CloudWatch alarms (${alarms.length}, over ${alarmMetrics} metrics)`,
      cost: Math.max(0, alarmMetrics - PRICES.freeAlarmMetrics) * PRICES.alarmMetric,
      why: `$${PRICES.alarmMetric.toFixed(2)} a metric, the first ${PRICES.freeAlarmMetrics} free`,
    },
    {
      item: `Secrets Manager (${ofType('AWS::SecretsManager::Secret').length} secrets)`,
      cost: ofType('AWS::SecretsManager::Secret').length * PRICES.secret,
      why: 'the JWT signing key, the integration providers, the Web Push (VAPID) key seed',
    },
    {
      item: `KMS keys (${ofType('AWS::KMS::Key').length})`,
      cost: ofType('AWS::KMS::Key').length * PRICES.kmsKey,
      why: 'seals integration tokens; its use is billed per request',
    },
    {
      item: `SQS long polls (${pollers} queues)`,
      cost: (Math.max(0, pollers * POLLS_PER_QUEUE - PRICES.freeSqsRequests) / 1_000_000) * PRICES.sqsPerMillion,
      why: `Lambda's pollers long-poll each empty queue (~${Math.round((pollers * POLLS_PER_QUEUE) / 100_000) / 10}M requests, 1M free)`,
    },
    {
      item: `scheduled runs (${schedules.length} schedules)`,
      cost: (runs / 1_000_000) * PRICES.lambdaPerMillion + runs * SWEEP_SECONDS * memoryGb * PRICES.lambdaGbSecond,
      why: `~${Math.round(runs / 1000)},000 short invocations (within Lambda's free tier in most accounts)`,
    },
    {
      item: `CloudWatch dashboards (${ofType('AWS::CloudWatch::Dashboard').length})`,
      cost: ofType('AWS::CloudWatch::Dashboard').length * PRICES.dashboard,
      why: 'opt-in: `-c dashboard=true` adds one at $3.00',
    },
  ];
  const total = rows.reduce((sum, row) => sum + row.cost, 0);
  return { rows, total };
};

/** The README's table: a header, a row per item, the total. */
const asTable = ({ rows, total }: ReturnType<typeof idleCost>): string =>
  [
    '| item | per month | why |',
    '| --- | --- | --- |',
    ...rows.map(({ item, cost, why }) => `| ${item} | ${dollars(cost)} | ${why} |`),
    `| **fixed cost of an idle stage** | **${dollars(total)}** | storage (table, PITR, logs, bucket) adds cents by the GB |`,
  ].join('\n');

describe('what an idle stage costs', () => {
  const view = inspectApp(PROD_CONTEXT);
  const cost = idleCost(Object.values(view.template.toJSON().Resources as Record<string, Resource>));

  // Issue 46's VAPID seed secret added $0.40 to $3.97, issue 40's second correlation queue $0.46 (its pollers, its age
  // alarm and its dead letters' metric): the budget is the lead's to keep or move (docs/decisions.md, "Push to the
  // phone" and "Two correlation lanes").
  it('is at most $4.85 a month at list prices', () => {
    expect(cost.total).toBeLessThanOrEqual(4.85);
  });

  it("is the README's table, computed from the template", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme.replace(/ +/g, ' '), 'README.md, "What it costs when idle"').toContain(asTable(cost));
  });
});
