import { type AccountScope, type Scope, systemScope } from '#lib/identity/scope.ts';
import { directoryWorkspaceIds } from '#lib/workspaces/workspace-repository.ts';
import { resolveOpenIncident } from '#lib/incidents/resolve-incident.ts';
import { signalLinkRepository } from '#lib/incidents/signal-link-repository.ts';
import { log } from '#lib/log/logger.ts';
import type { SignalEvent } from '#lib/signals/signal-event.ts';
import { signalIncidentRepository } from '#lib/signals/signal-incident-repository.ts';
import { storeSignalEvent } from '#lib/signals/store-signal-event.ts';
import { downAt, HEARTBEAT_SOURCE, type Heartbeat, severityOf, stateAt } from './heartbeat.ts';
import { heartbeatRepository } from './heartbeat-repository.ts';

export interface HeartbeatSweepResult {
  /** Heartbeats found DOWN whose signal was raised. */
  missed: number;
  /** Outages a ping ended: their signal and incident resolved. */
  recovered: number;
}

/** What every event of one heartbeat shares: the identity its trigger and its resolve are matched by. */
const eventOf = (heartbeat: Heartbeat, action: SignalEvent['action'], now: Date): SignalEvent => {
  // What is broken comes first on a page (the incident's title is the signal's summary): the heartbeat's name.
  const since = heartbeat.lastPingAt ? 'since the last one' : 'ever';
  return {
    signal: {
      name: `Heartbeat missed: ${heartbeat.name}`,
      source: HEARTBEAT_SOURCE,
      type: 'heartbeat',
      severity: severityOf(heartbeat.priority),
      ...(heartbeat.serviceId !== null && { serviceId: heartbeat.serviceId }),
      metadata: {
        heartbeatId: heartbeat.id,
        summary: `Heartbeat missed: ${heartbeat.name}`,
        description: `No ping ${since}; one is expected every ${heartbeat.intervalSeconds} s with ${heartbeat.graceSeconds} s of grace`,
        lastPingAt: heartbeat.lastPingAt,
      },
      triggeredAt: action === 'trigger' ? downAt(heartbeat).toISOString() : now.toISOString(),
    },
    fingerprint: `heartbeat:${heartbeat.id}`,
    action,
  };
};

/**
 * Raises a missed heartbeat as a signal, through correlation like any alert, so the service's rules and
 * escalation apply; then marks it DOWN. The signal's fingerprint is the heartbeat's, so a sweep that
 * raises it twice (a retried or overlapping run) merges into one signal: one incident.
 */
const raise = async (scope: Scope, heartbeat: Heartbeat, now: Date): Promise<boolean> => {
  const heartbeats = heartbeatRepository(scope.ports.table, scope.workspaceId);
  const { signalId } = await storeSignalEvent(scope, { event: eventOf(heartbeat, 'trigger', now) });
  if (await heartbeats.markDown(heartbeat, signalId, now.toISOString())) return true;
  const current = await heartbeats.findHeartbeat(heartbeat.id);
  // A ping came in after the heartbeat was read: what was raised is over already.
  if (!current?.downSince) await storeSignalEvent(scope, { event: eventOf(heartbeat, 'resolve', now) });
  return false;
};

/**
 * Ends an outage a ping ended: resolves the heartbeat's signal, then its incident when every signal of the
 * incident has resolved (another heartbeat of the same service may still be down), then clears the mark.
 * Each step can be run again, so a sweep that stops half-way is finished by the next one.
 */
const recover = async (scope: Scope, heartbeat: Heartbeat & { downSignalId: string }): Promise<void> => {
  const { ports, workspaceId } = scope;
  await storeSignalEvent(scope, { event: eventOf(heartbeat, 'resolve', ports.clock.now()) });
  const signals = signalIncidentRepository(ports.table, workspaceId);
  const [signal] = await signals.readSignals([heartbeat.downSignalId]);
  if (signal?.incidentId) {
    const links = await signalLinkRepository(ports.table, workspaceId).listSignalLinks(signal.incidentId);
    const linked = await signals.readSignals(links.map((link) => link.signalId));
    if (linked.every((other) => other.status === 'RESOLVED')) {
      await resolveOpenIncident(
        scope,
        signal.incidentId,
        `Resolved automatically: heartbeat "${heartbeat.name}" was pinged again at ${heartbeat.lastPingAt}.`,
      );
    }
  }
  await heartbeatRepository(ports.table, workspaceId).clearDown(heartbeat.id, heartbeat.downSignalId);
};

const pingedSinceDown = (heartbeat: Heartbeat): heartbeat is Heartbeat & { downSignalId: string } =>
  heartbeat.downSignalId !== null &&
  heartbeat.downSince !== null &&
  heartbeat.lastPingAt !== null &&
  heartbeat.lastPingAt > heartbeat.downSince;

/**
 * The heartbeats of one workspace, run by the SLA sweep's function every minute (docs/heartbeats.md): one Query, then
 * a signal for each heartbeat newly DOWN and a resolution for each outage a ping ended. A heartbeat that
 * fails is logged and left to the next run, so one cannot hold up the others.
 */
export const sweepHeartbeats = async (scope: Scope, now: Date): Promise<HeartbeatSweepResult> => {
  const result: HeartbeatSweepResult = { missed: 0, recovered: 0 };
  const heartbeats = await heartbeatRepository(scope.ports.table, scope.workspaceId).queryHeartbeats();
  for (const heartbeat of heartbeats) {
    try {
      if (pingedSinceDown(heartbeat)) {
        await recover(scope, heartbeat);
        result.recovered += 1;
      } else if (heartbeat.downSince === null && stateAt(heartbeat, now) === 'DOWN') {
        if (await raise(scope, heartbeat, now)) result.missed += 1;
      }
    } catch (error) {
      log.error('a heartbeat could not be swept; the next run tries again', {
        workspaceId: scope.workspaceId,
        heartbeatId: heartbeat.id,
        error,
      });
    }
  }
  return result;
};

/** Every workspace's heartbeats: the SLA sweep's function runs this after the SLA deadlines. */
export const sweepAllHeartbeats = async ({ ports }: AccountScope, now: Date): Promise<HeartbeatSweepResult> => {
  const result: HeartbeatSweepResult = { missed: 0, recovered: 0 };
  for (const workspaceId of await directoryWorkspaceIds(ports.table)) {
    const { missed, recovered } = await sweepHeartbeats(systemScope(workspaceId, ports), now);
    result.missed += missed;
    result.recovered += recovered;
  }
  return result;
};
