import { type AccountScope, systemScope } from '#lib/identity/scope.ts';
import { slaEnabled } from '#lib/sla/sla-policy-service.ts';
import { directoryWorkspaceIds } from '#lib/workspaces/workspace-repository.ts';
import { incidentRepository } from './incident-repository.ts';
import { settleSla } from './incident-sla.ts';
import { slaDeadlineRepository } from './sla-deadline-repository.ts';

export interface SlaSweepResult {
  workspaces: number;
  /** Passed deadlines read. */
  deadlines: number;
  /** Outcomes recorded on incidents: breaches the sweep found, or outcomes a failed hook left pending. */
  recorded: number;
}

/**
 * The SLA sweep (docs/sla-policies.md): in every workspace with SLAs enabled, each deadline that passed without
 * its target being reached is recorded as a breach on its incident and counted on its policy; then the
 * deadline is removed. It reads the passed deadlines only, never the incidents at large; a deadline of an
 * incident deleted since is simply removed.
 */
export const sweepSlaDeadlines = async ({ ports }: AccountScope, now: Date): Promise<SlaSweepResult> => {
  const result: SlaSweepResult = { workspaces: 0, deadlines: 0, recorded: 0 };
  for (const workspaceId of await directoryWorkspaceIds(ports.table)) {
    const scope = systemScope(workspaceId, ports);
    if (!(await slaEnabled(scope))) continue;
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
  }
  return result;
};
