export const SLA_PRIORITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
export type SlaPriority = (typeof SLA_PRIORITIES)[number];

export const BREACH_STATUSES = ['NONE', 'RESPONSE_BREACH', 'RESOLVE_BREACH', 'BOTH'] as const;
export type BreachStatus = (typeof BREACH_STATUSES)[number];

/** The `applicableTeam` that governs incidents of every team. */
export const ANY_TEAM = '*';

/** The fields a client writes (spec: SLA policy); every one is required on POST and PUT. */
export interface SlaPolicyFields {
  name: string;
  priority: SlaPriority;
  responseTimeMinutes: number;
  responseThreshold: number;
  resolveTimeMinutes: number;
  resolveThreshold: number;
  escalationContact: string;
  applicableTeam: string;
  uptimeTarget: number;
}

/**
 * What the incidents a policy governs add up to, kept on the policy item by `ADD` after each incident
 * write (docs/sla-policies.md). `active*` count the governed incidents not yet RESOLVED or CLOSED whose target
 * was missed: they decide `breachStatus`.
 */
export const POLICY_COUNTERS = [
  'governed',
  'responseMet',
  'responseBreached',
  'resolveMet',
  'resolveBreached',
  'activeResponseBreaches',
  'activeResolveBreaches',
  'downtimeMinutes',
] as const;
export type PolicyCounters = Record<(typeof POLICY_COUNTERS)[number], number>;

export interface SlaPolicy extends SlaPolicyFields {
  id: string;
  breachStatus: BreachStatus;
  createdAt: string;
  updatedAt: string;
}

/** Policy ids are ULIDs; any other path value names no policy and is answered without a read. */
export const isPolicyId = (value: string): boolean => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value);

/** Where an incident stands against one target of its policy. */
export type SlaOutcome = 'PENDING' | 'MET' | 'BREACHED';

/** What one incident tells its policy: its two outcomes, whether it is over, and how long it lasted. */
export interface GovernedIncident {
  response: SlaOutcome;
  resolve: SlaOutcome;
  done: boolean;
  /** Minutes from creation to resolution; undefined while the incident is not resolved. */
  downtimeMinutes?: number;
}

const flag = (condition: boolean): number => (condition ? 1 : 0);

/** One governed incident's share of its policy's counters. */
export const policyContribution = (incident: GovernedIncident | undefined): Record<string, number> => {
  if (!incident) return {};
  const { response, resolve, done } = incident;
  return {
    governed: 1,
    responseMet: flag(response === 'MET'),
    responseBreached: flag(response === 'BREACHED'),
    resolveMet: flag(resolve === 'MET'),
    resolveBreached: flag(resolve === 'BREACHED'),
    activeResponseBreaches: flag(!done && response === 'BREACHED'),
    activeResolveBreaches: flag(!done && resolve === 'BREACHED'),
    downtimeMinutes: incident.downtimeMinutes ?? 0,
  };
};

/** NONE while no governed incident that is still open has missed a target (spec: breachStatus). */
export const breachStatusOf = (counters: PolicyCounters): BreachStatus => {
  const response = counters.activeResponseBreaches > 0;
  const resolve = counters.activeResolveBreaches > 0;
  if (response && resolve) return 'BOTH';
  if (response) return 'RESPONSE_BREACH';
  return resolve ? 'RESOLVE_BREACH' : 'NONE';
};

interface TargetCompliance {
  met: number;
  breached: number;
  /** Percent of the decided incidents that met the target, two decimals; null before any is decided. */
  metPercent: number | null;
  threshold: number;
  /** The threshold holds while `metPercent` reaches it; true before any incident is decided. */
  holds: boolean;
}

interface UptimeCompliance {
  /** Percent of the time since the policy was created not covered by its governed incidents' durations. */
  percent: number;
  target: number;
  holds: boolean;
}

export interface SlaCompliance {
  governedIncidents: number;
  response: TargetCompliance;
  resolve: TargetCompliance;
  uptime: UptimeCompliance;
}

const round2 = (value: number): number => Math.round(value * 100) / 100;

const target = (met: number, breached: number, threshold: number): TargetCompliance => {
  const decided = met + breached;
  const metPercent = decided === 0 ? null : round2((met / decided) * 100);
  return { met, breached, metPercent, threshold, holds: metPercent === null || metPercent >= threshold };
};

/**
 * The policy's thresholds and uptime target against what its incidents recorded. Uptime counts the
 * resolved incidents' durations (creation to resolution) as downtime over the minutes since the policy
 * was created, so overlapping incidents count twice: a conservative figure.
 */
export const complianceOf = (policy: SlaPolicy, counters: PolicyCounters, now: Date): SlaCompliance => {
  const minutes = Math.max(1, (now.getTime() - Date.parse(policy.createdAt)) / 60_000);
  const uptime = round2(Math.max(0, 100 * (1 - counters.downtimeMinutes / minutes)));
  return {
    governedIncidents: counters.governed,
    response: target(counters.responseMet, counters.responseBreached, policy.responseThreshold),
    resolve: target(counters.resolveMet, counters.resolveBreached, policy.resolveThreshold),
    uptime: { percent: uptime, target: policy.uptimeTarget, holds: uptime >= policy.uptimeTarget },
  };
};

/**
 * The policy governing an incident of `priority` and `team`: one of that priority naming the team
 * (compared trimmed and without case), else one for every team (`*`); among several, the oldest.
 * `policies` come oldest first.
 */
export const governingPolicy = <P extends Pick<SlaPolicy, 'priority' | 'applicableTeam'>>(
  policies: readonly P[],
  priority: string,
  team: string | undefined,
): P | undefined => {
  const ofPriority = policies.filter((policy) => policy.priority === priority);
  const teamKey = team?.trim().toLowerCase();
  return (
    (teamKey ? ofPriority.find((policy) => policy.applicableTeam.toLowerCase() === teamKey) : undefined) ??
    ofPriority.find((policy) => policy.applicableTeam === ANY_TEAM)
  );
};
