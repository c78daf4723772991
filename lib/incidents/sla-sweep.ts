import { type AccountScope, systemScope, type Scope } from '#lib/identity/scope.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { imsConfigRepository } from '#lib/workspaces/ims-config-repository.ts';
import { directoryWorkspaceIds } from '#lib/workspaces/workspace-repository.ts';
import { escalateOverdueIncidents } from './escalation.ts';
import { incidentRepository } from './incident-repository.ts';
import { settleSla } from './incident-sla.ts';
import { slaDeadlineRepository } from './sla-deadline-repository.ts';

/** The rotation math and the handoff mail: a chunk of its own, loaded by the first sweep. */
const handoffs = onFirstUse(() => import('#lib/schedules/handoff-notices.ts'));

export interface SlaSweepResult {
  workspaces: number;
  /** Passed deadlines read. */
  deadlines: number;
  /** Outcomes recorded on incidents: breaches the sweep found, or outcomes a failed hook left pending. */
  recorded: number;
  /** Escalation pages sent for incidents nobody acknowledged (`autoEscalate`, or escalation policies). */
  escalated: number;
  /** Members told their shift on call started (docs/on-call.md). */
  handoffsTold: number;
}

/**
 * The SLA sweep (docs/sla-policies.md, docs/escalation.md). In every workspace with SLAs enabled, each deadline
 * that passed without its target being reached is recorded as a breach on its incident and counted on its
 * policy (which queues the breach alert); then the deadline is removed. It reads the passed deadlines only,
 * never the incidents at large; a deadline of an incident deleted since is simply removed. In every
 * workspace with `autoEscalate` on or escalation policies, the OPEN incidents are paged by their escalation
 * plan (docs/escalation.md, docs/on-call.md). In every workspace, members whose shift on call started since are told.
 */
export const sweepSlaDeadlines = async ({ ports }: AccountScope, now: Date): Promise<SlaSweepResult> => {
  const result: SlaSweepResult = { workspaces: 0, deadlines: 0, recorded: 0, escalated: 0, handoffsTold: 0 };
  for (const workspaceId of await directoryWorkspaceIds(ports.table)) {
    const scope = systemScope(workspaceId, ports);
    const config = await imsConfigRepository(ports.table, workspaceId).getImsConfig();
    if (config?.slaEnabled) await sweepWorkspaceDeadlines(scope, now, result);
    const escalation = { autoEscalate: config?.autoEscalate ?? false, since: config?.autoEscalateSince };
    result.escalated += await escalateOverdueIncidents(scope, now, escalation);
    result.handoffsTold += await (await handoffs()).tellHandoffs(scope, now);
  }
  return result;
};

const sweepWorkspaceDeadlines = async (scope: Scope, now: Date, result: SlaSweepResult): Promise<void> => {
  const { ports, workspaceId } = scope;
  result.workspaces += 1;
  const deadlines = slaDeadlineRepository(ports.table, workspaceId);
  const passed = await deadlines.passedDeadlines(now.toISOString());
  const incidents = incidentRepository(ports.table, workspaceId);
  for (const deadline of passed) {
    const incident = await incidents.getIncident(deadline.incidentId);
    if (incident) result.recorded += await settleSla(scope, incident, now);
  }
  await deadlines.removeDeadlines(passed);
  result.deadlines += passed.length;
};
