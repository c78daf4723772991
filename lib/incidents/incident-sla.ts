import type { Scope } from '#lib/identity/scope.ts';
import { policyContribution, type GovernedIncident, type SlaOutcome } from '#lib/sla/sla-policy.ts';
import { countGovernedIncident, targetsForIncident } from '#lib/sla/sla-policy-service.ts';
import { counterDelta } from '#lib/store/counters.ts';
import { isDone, type Incident } from './incident.ts';
import { queueIncidentEvents } from './incident-notifications.ts';
import { incidentRepository } from './incident-repository.ts';
import { addToIncidentRollups } from './incident-rollup.ts';
import { slaDeadlineRepository, type SlaDeadline, type SlaTarget } from './sla-deadline-repository.ts';

/** Where each target's outcome, deadline and reaching moment live on the incident. */
const TARGETS = {
  RESPONSE: { outcome: 'slaResponse', dueAt: 'slaResponseDueAt', reachedAt: 'acknowledgedAt' },
  RESOLVE: { outcome: 'slaResolve', dueAt: 'slaResolveDueAt', reachedAt: 'resolvedAt' },
} as const satisfies Record<SlaTarget, Record<string, keyof Incident>>;

const SLA_TARGETS = Object.keys(TARGETS) as SlaTarget[];

const minutesAfter = (at: Date, minutes: number): string => new Date(at.getTime() + minutes * 60_000).toISOString();

/**
 * The SLA fields of a new incident: the governing policy's id and the deadlines its targets set from the
 * creation time, both outcomes PENDING; none when SLAs are off or no policy governs the incident. The
 * incident's team is its `serviceArea` (docs/sla-policies.md).
 */
export const slaOfNewIncident = async (
  scope: Scope,
  { priority, serviceArea, createdAt }: { priority: string; serviceArea?: string; createdAt: Date },
): Promise<Partial<Incident>> => {
  const targets = await targetsForIncident(scope, { priority, team: serviceArea });
  if (!targets) return {};
  return {
    slaPolicyId: targets.policyId,
    slaResponseDueAt: minutesAfter(createdAt, targets.responseTimeMinutes),
    slaResolveDueAt: minutesAfter(createdAt, targets.resolveTimeMinutes),
    slaResponse: 'PENDING',
    slaResolve: 'PENDING',
  };
};

/**
 * A pending target's outcome at `now`: MET when it was reached by its deadline (inclusive), BREACHED
 * when it was reached later or the deadline passed first, PENDING otherwise. A decided outcome is never
 * decided again: the first acknowledgement and the first resolution count, whatever reopening follows.
 */
const outcomeAt = (incident: Incident, target: SlaTarget, now: Date): SlaOutcome => {
  const { dueAt, reachedAt } = TARGETS[target];
  const due = incident[dueAt];
  if (!due) return 'PENDING';
  const reached = incident[reachedAt];
  if (reached) return reached <= due ? 'MET' : 'BREACHED';
  return now.toISOString() > due ? 'BREACHED' : 'PENDING';
};

/** What the incident tells its policy's counters; undefined when no policy governs it. */
const governed = (incident: Incident | undefined): GovernedIncident | undefined => {
  if (!incident?.slaPolicyId) return undefined;
  return {
    response: incident.slaResponse ?? 'PENDING',
    resolve: incident.slaResolve ?? 'PENDING',
    done: isDone(incident.status),
    ...(incident.resolvedAt && {
      downtimeMinutes: (Date.parse(incident.resolvedAt) - Date.parse(incident.createdAt)) / 60_000,
    }),
  };
};

const contributionOf = (incident: Incident | undefined) => policyContribution(governed(incident));

/** The change of a write on the policy counters; an incident that moved to another policy leaves the old one. */
const countChange = async (scope: Scope, before: Incident | undefined, after: Incident | undefined) => {
  const from = before?.slaPolicyId;
  const to = after?.slaPolicyId;
  if (from && from === to) {
    await countGovernedIncident(scope, {
      policyId: from,
      delta: counterDelta(contributionOf(before), contributionOf(after)),
    });
    return;
  }
  if (from) await countGovernedIncident(scope, { policyId: from, delta: counterDelta(contributionOf(before), {}) });
  if (to) await countGovernedIncident(scope, { policyId: to, delta: counterDelta({}, contributionOf(after)) });
};

/** Priority and serviceArea choose the policy (docs/sla-policies.md). */
const governingFieldsChanged = (before: Incident, after: Incident): boolean =>
  before.priority !== after.priority || before.serviceArea !== after.serviceArea;

const deadlineOf = (incident: Incident, target: SlaTarget): SlaDeadline | undefined => {
  const dueAt = incident[TARGETS[target].dueAt];
  return dueAt ? { incidentId: incident.id, target, dueAt } : undefined;
};

/** The breach alert of a target (docs/escalation.md), named by the deadline it missed. */
const breachEvent = (scope: Scope, incident: Incident, target: SlaTarget) => ({
  workspaceId: scope.workspaceId,
  incidentId: incident.id,
  event: target === 'RESPONSE' ? ('RESPONSE_BREACHED' as const) : ('RESOLVE_BREACHED' as const),
  at: incident[TARGETS[target].dueAt] ?? incident.createdAt,
  priority: incident.priority,
});

/**
 * Records every target of a governed incident that is decided at `now` and still PENDING on the item:
 * one conditional write per target (`PENDING` still there), so of two writers only one records it, counts
 * it on the policy and in the dashboard's rollup, and, for a breach, queues its alert: once per breach.
 * The decided targets' deadlines are removed. Answers how many it recorded.
 */
export const settleSla = async (scope: Scope, incident: Incident, now: Date): Promise<number> => {
  const { table } = scope.ports;
  let current = incident;
  let recorded = 0;
  const decided: SlaDeadline[] = [];
  for (const target of SLA_TARGETS) {
    const field = TARGETS[target].outcome;
    if ((current[field] ?? 'PENDING') !== 'PENDING') continue;
    const outcome = outcomeAt(current, target, now);
    if (outcome === 'PENDING') continue;
    const deadline = deadlineOf(current, target);
    if (deadline) decided.push(deadline);
    const written = await incidentRepository(table, scope.workspaceId).updateIncidentItem(
      current.id,
      { set: { [field]: outcome }, setIfAbsent: {}, remove: [] },
      { field, equals: 'PENDING' },
    );
    if (!written) continue;
    await Promise.all([
      countChange(scope, written.before, written.after),
      addToIncidentRollups(scope, written),
      outcome === 'BREACHED' && queueIncidentEvents(scope, [breachEvent(scope, written.after, target)]),
    ]);
    current = written.after;
    recorded += 1;
  }
  await slaDeadlineRepository(table, scope.workspaceId).removeDeadlines(decided);
  return recorded;
};

const pendingDeadlines = (incident: Incident): SlaDeadline[] =>
  SLA_TARGETS.flatMap((target) =>
    incident[TARGETS[target].outcome] === 'PENDING' ? (deadlineOf(incident, target) ?? []) : [],
  );

/**
 * A new priority or serviceArea may choose another policy: the incident then takes its deadlines (from its
 * creation) with both outcomes PENDING again, so they are decided against the new targets. When no policy
 * governs the new values, the incident keeps the one it had: lowering a priority does not erase a breach.
 */
const regovern = async (scope: Scope, incident: Incident): Promise<Incident> => {
  const sla = await slaOfNewIncident(scope, {
    priority: incident.priority,
    serviceArea: incident.serviceArea,
    createdAt: new Date(incident.createdAt),
  });
  if (!sla.slaPolicyId || sla.slaPolicyId === incident.slaPolicyId) return incident;
  const written = await incidentRepository(scope.ports.table, scope.workspaceId).updateIncidentItem(
    incident.id,
    { set: sla, setIfAbsent: {}, remove: [] },
    incident.slaPolicyId
      ? { field: 'slaPolicyId', equals: incident.slaPolicyId }
      : { field: 'slaPolicyId', absent: true },
  );
  if (!written) return incident;
  const deadlines = slaDeadlineRepository(scope.ports.table, scope.workspaceId);
  await deadlines.removeDeadlines(pendingDeadlines(written.before));
  await deadlines.putDeadlines(pendingDeadlines(written.after));
  return written.after;
};

/**
 * The SLA side of an incident write (`recordIncidentChange`): a new governed incident gets its deadlines,
 * a changed priority or serviceArea may move it to another policy, the policies' counters follow the write
 * (status, resolution, deletion), and the targets the write decided are recorded. Only a moved priority or
 * serviceArea reads (the policies); an incident without a policy otherwise costs nothing.
 */
export const recordSlaChange = async (
  scope: Scope,
  before: Incident | undefined,
  after: Incident | undefined,
): Promise<void> => {
  if (after && !before) {
    await slaDeadlineRepository(scope.ports.table, scope.workspaceId).putDeadlines(pendingDeadlines(after));
  }
  const current = before && after && governingFieldsChanged(before, after) ? await regovern(scope, after) : after;
  if (!(current ?? before)?.slaPolicyId) return;
  await countChange(scope, before, current);
  if (current) await settleSla(scope, current, scope.ports.clock.now());
};
