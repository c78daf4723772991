import { createIds } from '#lib/ports/ids.ts';

/**
 * A metrics-alerting notification of `count` firing alerts, the first carrying an annotation of `largeBytes`:
 * past 100 events the ingestion route queues them, and an event that large goes by the payload bucket.
 */
export const alertStorm = (count: number, largeBytes: number) => ({
  receiver: 'hook',
  status: 'firing',
  version: '4',
  groupKey: '{}:{alertname="DiskFull"}',
  alerts: Array.from({ length: count }, (_unused, index) => ({
    status: 'firing',
    labels: { alertname: 'DiskFull', instance: `db-${index}`, severity: 'critical' },
    annotations: {
      summary: `Disk almost full on db-${index}`,
      ...(index === 0 && { dump: 'x'.repeat(largeBytes) }),
    },
    startsAt: new Date().toISOString(),
    fingerprint: `disk-${index}`,
  })),
});

/**
 * An ingestion-queue message of an event the table refused ten minutes ago (its signal id is of that time),
 * whose correlation message is then lost: the correlation sweep finds the signal pending and sends it again.
 */
export const eventQueuedTenMinutesAgo = (workspaceId: string): { signalId: string; message: string } => {
  const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
  const signalId = createIds({ now: () => tenMinutesAgo }).sortable();
  const signal = { name: 'Disk almost full', source: 'monitoring', type: 'alert', severity: 'HIGH', metadata: {} };
  const queued = {
    workspaceId,
    signalId,
    receivedAt: tenMinutesAgo.toISOString(),
    event: {
      signal: { ...signal, triggeredAt: tenMinutesAgo.toISOString() },
      fingerprint: `disk-${signalId}`,
      action: 'trigger',
    },
  };
  return { signalId, message: JSON.stringify(queued) };
};
