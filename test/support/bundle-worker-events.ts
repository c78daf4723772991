import { heartbeatRepository } from '#lib/heartbeats/heartbeat-repository.ts';
import { incidentRepository } from '#lib/incidents/incident-repository.ts';
import { slaDeadlineRepository } from '#lib/incidents/sla-deadline-repository.ts';
import { createIds } from '#lib/ports/ids.ts';
import type { Table } from '#lib/store/table.ts';

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

/**
 * Ages an incident's SLA response deadline to a minute ago, as if the incident had been opened that much
 * earlier: its due time and its pending deadline item both, as time passing leaves them. The bundles run on
 * the real clock and a target is at least a minute, so the sweep would otherwise find nothing passed.
 */
export const passResponseDeadline = async (table: Table, workspaceId: string, incidentId: string): Promise<void> => {
  const deadlines = slaDeadlineRepository(table, workspaceId);
  // Every deadline of this millennium sorts before "9999", so this reads them all, passed or not.
  const pending = (await deadlines.passedDeadlines('9999')).filter(
    (deadline) => deadline.incidentId === incidentId && deadline.target === 'RESPONSE',
  );
  if (pending.length !== 1) throw new Error(`${incidentId} has no pending response deadline`);
  const dueAt = new Date(Date.now() - 60_000).toISOString();
  const set = { slaResponseDueAt: dueAt };
  await incidentRepository(table, workspaceId).updateIncidentItem(incidentId, { set, setIfAbsent: {}, remove: [] });
  await deadlines.removeDeadlines(pending);
  await deadlines.putDeadlines(pending.map((deadline) => ({ ...deadline, dueAt })));
};

/**
 * Ages a heartbeat as if it had been created an hour ago and never pinged, so the SLA sweep (which raises
 * missed heartbeats) finds it DOWN on the real clock: its item removed and written again with that creation time.
 */
export const missHeartbeat = async (table: Table, workspaceId: string, heartbeatId: string): Promise<void> => {
  const heartbeats = heartbeatRepository(table, workspaceId);
  const heartbeat = await heartbeats.findHeartbeat(heartbeatId);
  if (!heartbeat) throw new Error(`no heartbeat ${heartbeatId}`);
  await heartbeats.removeHeartbeat(heartbeatId);
  await heartbeats.insertHeartbeat({ ...heartbeat, createdAt: new Date(Date.now() - 60 * 60_000).toISOString() });
};
