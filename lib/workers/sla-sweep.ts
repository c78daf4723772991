import type { FunctionDeclaration } from '#lib/ports/need.ts';
import { queueSender } from '#lib/ports/queue/queue-need.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { payloadObjects } from '#lib/ports/object-store/object-store-need.ts';
import { metrics } from '#lib/ports/metrics/metrics-need.ts';
import { mail } from '#lib/ports/mail/mail-need.ts';
import { CORRELATION_LANES } from '#lib/signals/correlation-lane.ts';

/**
 * How often the sweep runs by default (CDK context `slaSweepMinutes`, locally `SLA_SWEEP_SECONDS`): a breach is
 * recorded, and an escalation sent, at most this late after its deadline. A minute, since escalation is
 * about minutes; a run that finds nothing due is one query per workspace.
 */
export const SLA_SWEEP_MINUTES = 1;

export const slaSweep: FunctionDeclaration = {
  name: 'sla-sweep',
  description:
    'Records SLA breaches of incidents whose deadlines passed, escalates unacknowledged incidents, tells members their on-call shift started and raises missed heartbeats',
  // A missed heartbeat is stored as a signal like any alert: the correlation queues, and the ingestion queue and
  // payload bucket the signal store falls back on; the metric is the sweep's own heartbeat (docs/heartbeats.md).
  // Mail: the handoff notices it sends itself (docs/on-call.md), no incident event for the notification worker.
  needs: [
    mail,
    tableReadWrite,
    queueSender('notifications', ...CORRELATION_LANES, 'ingestion'),
    payloadObjects('readWrite'),
    metrics,
  ],
};
