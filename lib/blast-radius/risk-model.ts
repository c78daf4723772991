import { countOf } from '#lib/contract/count-words.ts';
import type { AffectedService } from './blast-report.ts';

/**
 * The risk model (docs/service-map.md, "Risk model"): every weight and rule of a score is here, and the
 * document states the same formula. Scores are in 0..1, rounded to two decimals.
 */
const RISK_WEIGHTS = { reach: 0.5, fanOut: 0.2, trouble: 0.3 } as const;

/** How much one open item on a service says it is in trouble already, by its priority or severity. */
const INCIDENT_WEIGHT = { CRITICAL: 0.9, HIGH: 0.7, MEDIUM: 0.4, LOW: 0.2 } as const;
const SIGNAL_WEIGHT = { HIGH: 0.5, MEDIUM: 0.3, LOW: 0.1 } as const;
const FAILED_RUN_WEIGHT = 0.3;

/** A failed pipeline run counts this long after it started. */
export const RECENT_RUNS_MS = 24 * 60 * 60 * 1000;

/** What the workspace knows of one service's current state. */
export interface ServiceTrouble {
  incidents: (keyof typeof INCIDENT_WEIGHT)[];
  signals: (keyof typeof SIGNAL_WEIGHT)[];
  failedRuns: number;
}

export const NO_TROUBLE: ServiceTrouble = { incidents: [], signals: [], failedRuns: 0 };

const round = (value: number): number => Math.round(Math.min(1, Math.max(0, value)) * 100) / 100;

/** 1 at the service itself, falling by equal steps to 1 / (maxDepth + 1) at the farthest hop asked for. */
const reachOf = (depth: number, maxDepth: number): number => 1 - depth / (maxDepth + 1);

/** 0 for a service nothing depends on, 1/2 for one dependent, 2/3 for two, toward 1. */
const fanOutOf = (dependents: number): number => 1 - 1 / (1 + dependents);

/** Independent pieces of evidence combined: 1 − Π(1 − w); none gives 0, and it never reaches 1. */
const troubleOf = ({ incidents, signals, failedRuns }: ServiceTrouble): number => {
  const weights = [
    ...incidents.map((priority) => INCIDENT_WEIGHT[priority]),
    ...signals.map((severity) => SIGNAL_WEIGHT[severity]),
    ...Array.from({ length: failedRuns }, () => FAILED_RUN_WEIGHT),
  ];
  return 1 - weights.reduce((calm, weight) => calm * (1 - weight), 1);
};

export const riskScoreOf = (input: {
  depth: number;
  maxDepth: number;
  dependents: number;
  trouble: ServiceTrouble;
}): number =>
  round(
    RISK_WEIGHTS.reach * reachOf(input.depth, input.maxDepth) +
      RISK_WEIGHTS.fanOut * fanOutOf(input.dependents) +
      RISK_WEIGHTS.trouble * troubleOf(input.trouble),
  );

/** The highest service score, raised by 0.05 for each further affected service: breadth adds to the risk. */
export const overallRiskOf = (scores: readonly number[]): number =>
  scores.length === 0 ? 0 : round(Math.max(...scores) + 0.05 * (scores.length - 1));

const RISK_TIERS = ['high', 'medium', 'low'] as const;
export type RiskTier = (typeof RISK_TIERS)[number];

/** The spec's tiers: high >= 0.75, medium 0.4 to 0.74, low < 0.4. */
export const tierOf = (score: number): RiskTier => (score >= 0.75 ? 'high' : score >= 0.4 ? 'medium' : 'low');

const listed = (names: readonly string[]): string => {
  if (names.length > 3) return `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
  return names.length === 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
};

const OUTLOOK: Record<RiskTier, string> = {
  high: 'High impact: users of {services} are likely to see errors or an outage.',
  medium: 'Moderate impact: users of {services} may see degraded or slow responses.',
  low: 'Low impact: little or no user-visible effect is expected on {services}.',
};

/** The report's figures in words: the tier's outlook, then what it rests on. */
export const userImpactOf = (overall: number, affected: readonly AffectedService[]): string => {
  const [origin, ...dependents] = affected;
  const direct = dependents.filter((service) => service.depth === 1).length;
  const sum = (field: 'openIncidents' | 'openSignals' | 'failedPipelineRuns') =>
    affected.reduce((total, service) => total + service[field], 0);
  return [
    OUTLOOK[tierOf(overall)].replace('{services}', listed(affected.map((service) => service.name))),
    `Overall risk ${overall.toFixed(2)} over ${countOf(affected.length, 'service')}`,
    `(${origin?.name ?? 'the service'} and ${countOf(dependents.length, 'dependent')}, ${direct} of them direct);`,
    `${countOf(sum('openIncidents'), 'open incident')}, ${countOf(sum('openSignals'), 'open signal')},`,
    `${countOf(sum('failedPipelineRuns'), 'failed pipeline run')} in the last 24 hours.`,
  ].join(' ');
};
