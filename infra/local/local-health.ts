import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { NOTIFICATION_LATE_MINUTES, sweepStoppedAfterMs } from '#lib/ports/metrics/pager-health.ts';
import type { Clock } from '#lib/ports/clock.ts';
import { QUEUE_NAMES, type QueueName } from '#lib/ports/queue/queue.ts';
import type { LocalMetrics } from './local-metrics.ts';
import type { LocalSqs } from './sqs-server.ts';

/** The figures the AWS alarms of infra/constructs/pager-health.ts watch, as the local stack has them. */
interface HealthSnapshot {
  sweep: { intervalSeconds: number; lastRunAt: string | null; stopped: boolean };
  notifications: { lateAfterMinutes: number; maxLagSeconds: number | null; late: boolean };
  /** Messages set aside on each dead-letter queue. */
  deadLetters: Record<QueueName, number>;
}

export interface LocalHealth {
  /** The SLA sweep finished a run. */
  sweepRan(): void;
  snapshot(): Promise<HealthSnapshot>;
}

/**
 * Whether the local pager still pages (`GET /_local/metrics`, `health`; docs/heartbeats.md): the sweep
 * counts as stopped, as the SweepStopped alarm does, when it has not finished a run for two of its
 * intervals (at least five minutes) since the stack started or its last run.
 */
export const createLocalHealth = ({
  sqs,
  metrics,
  clock,
  sweepIntervalMs,
}: {
  sqs: LocalSqs;
  metrics: LocalMetrics;
  clock: Clock;
  sweepIntervalMs: number;
}): LocalHealth => {
  const startedAt = clock.now();
  let lastRunAt: Date | undefined;
  const depth = async (name: QueueName): Promise<number> => {
    const { Attributes } = await sqs.client.send(
      new GetQueueAttributesCommand({
        QueueUrl: sqs.deadLetterQueueUrl(name),
        AttributeNames: ['ApproximateNumberOfMessages'],
      }),
    );
    return Number(Attributes?.ApproximateNumberOfMessages ?? 0);
  };
  return {
    sweepRan() {
      lastRunAt = clock.now();
    },
    async snapshot() {
      const since = (lastRunAt ?? startedAt).getTime();
      const lag = metrics.snapshot().durations.NotificationLag;
      const maxLagSeconds = lag.count > 0 ? Math.round(lag.maxMs / 1000) : null;
      const depths = await Promise.all(QUEUE_NAMES.map(depth));
      return {
        sweep: {
          intervalSeconds: sweepIntervalMs / 1000,
          lastRunAt: lastRunAt?.toISOString() ?? null,
          stopped: clock.now().getTime() - since > sweepStoppedAfterMs(sweepIntervalMs),
        },
        notifications: {
          lateAfterMinutes: NOTIFICATION_LATE_MINUTES,
          maxLagSeconds,
          late: maxLagSeconds !== null && maxLagSeconds > NOTIFICATION_LATE_MINUTES * 60,
        },
        deadLetters: Object.fromEntries(QUEUE_NAMES.map((name, index) => [name, depths[index] ?? 0])) as Record<
          QueueName,
          number
        >,
      };
    },
  };
};
