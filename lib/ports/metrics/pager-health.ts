/**
 * The thresholds of the pager's own health (docs/heartbeats.md), one place for the AWS alarms
 * (infra/constructs/pager-health.ts) and the local figures (`GET /_local/metrics`).
 */

/** A notification sent, or still failing, this long after its event is late. */
export const NOTIFICATION_LATE_MINUTES = 10;

/** The share of the account's monthly SMS spend limit at which the alarm fires: SNS stops sending at the limit. */
export const SMS_SPEND_ALARM_SHARE = 0.8;

/** AWS's default monthly SMS spend limit of an account, in USD, when the deployment names none. */
export const DEFAULT_SMS_SPEND_LIMIT_USD = 1;

/** The sweep has stopped when it has not run for two of its intervals (at least five minutes, as in AWS). */
export const sweepStoppedAfterMs = (sweepIntervalMs: number): number => Math.max(5 * 60_000, 2 * sweepIntervalMs);
