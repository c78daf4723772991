import type { IncidentPriority } from '#lib/incidents/incident.ts';
import type { SignalSeverity } from '#lib/signals/signal-event.ts';
import type { Signal } from '#lib/signals/signal.ts';

/** `min` takes that severity and every higher one; `in` takes exactly the listed ones. */
export type SeverityCondition = { min: SignalSeverity } | { in: SignalSeverity[] };

/**
 * Which signals a rule takes. Every condition given must hold; a condition left out holds for every
 * signal. Lists hold alternatives (any one of them). Text is compared trimmed and without case.
 */
export interface RuleMatch {
  sources?: string[];
  severity?: SeverityCondition;
  /** The signal's `serviceId`. */
  serviceIds?: string[];
  /** `metadata.labels`: every label named must be present with one of its listed values. */
  labels?: Record<string, string[]>;
}

/** The signal fields a rule may group by, besides `labels.<name>` for any label. */
export const GROUP_FIELDS = ['source', 'serviceId', 'severity', 'name', 'type', 'environment'] as const;
export const LABEL_GROUP_PREFIX = 'labels.';

export interface CorrelationRule {
  id: string;
  name: string;
  description: string | null;
  /** Rules are tried in ascending order (then by id); the first active rule that matches takes the signal. */
  order: number;
  isActive: boolean;
  match: RuleMatch;
  /** Signals with equal values of these fields form one group, which has at most one incident open at a time. */
  groupBy: string[];
  windowMinutes: number;
  /** Distinct signals of one group, within one window, that open an incident; 1 opens one at once. */
  minSignals: number;
  action: { priority: IncidentPriority };
  /**
   * The incidents this rule opens resolve themselves once every signal linked to them has resolved
   * (docs/correlation.md); off, they only say so in their thread.
   */
  autoResolve: boolean;
  /** One of the built-in default rules (docs/correlation.md), in effect until the workspace writes its own. */
  isDefault: boolean;
  /** Null on a built-in default the workspace has not stored yet. */
  createdAt: string | null;
  updatedAt: string | null;
}

const SEVERITY_RANK: Readonly<Record<SignalSeverity, number>> = { LOW: 1, MEDIUM: 2, HIGH: 3 };

const same = (value: string): string => value.trim().toLowerCase();

const oneOf = (value: string | null | undefined, alternatives: readonly string[]): boolean =>
  value !== null && value !== undefined && alternatives.some((alternative) => same(alternative) === same(value));

/**
 * `metadata.labels` of a signal, its string values only (senders put other shapes there too). Without a
 * prototype, so a rule's label name such as `toString` finds only a label of that name.
 */
const signalLabels = (signal: Pick<Signal, 'metadata'>): Record<string, string> => {
  const labels: Record<string, string> = Object.create(null);
  const given = signal.metadata.labels;
  if (!given || typeof given !== 'object' || Array.isArray(given)) return labels;
  for (const [name, value] of Object.entries(given)) if (typeof value === 'string') labels[name] = value;
  return labels;
};

/** `metadata.environment`, else the `environment` or `env` label. */
export const signalEnvironment = (signal: Pick<Signal, 'metadata'>): string | undefined => {
  const { environment } = signal.metadata;
  if (typeof environment === 'string' && environment.trim()) return environment.trim();
  const labels = signalLabels(signal);
  return (labels.environment ?? labels.env)?.trim() || undefined;
};

const severityHolds = (condition: SeverityCondition, severity: SignalSeverity): boolean =>
  'min' in condition ? SEVERITY_RANK[severity] >= SEVERITY_RANK[condition.min] : condition.in.includes(severity);

const ruleMatches = ({ match }: Pick<CorrelationRule, 'match'>, signal: Signal): boolean => {
  if (match.sources && !oneOf(signal.source, match.sources)) return false;
  if (match.severity && !severityHolds(match.severity, signal.severity)) return false;
  if (match.serviceIds && !oneOf(signal.serviceId, match.serviceIds)) return false;
  if (match.labels) {
    const labels = signalLabels(signal);
    if (!Object.entries(match.labels).every(([name, values]) => oneOf(labels[name], values))) return false;
  }
  return true;
};

/** The first active rule, in rule order, that takes the signal. */
export const firstMatchingRule = (rules: readonly CorrelationRule[], signal: Signal): CorrelationRule | undefined =>
  rules.find((rule) => rule.isActive && ruleMatches(rule, signal));

const groupValue = (field: string, signal: Signal): string | undefined => {
  if (field.startsWith(LABEL_GROUP_PREFIX)) return signalLabels(signal)[field.slice(LABEL_GROUP_PREFIX.length)];
  switch (field) {
    case 'source':
      return signal.source;
    case 'serviceId':
      return signal.serviceId ?? undefined;
    case 'severity':
      return signal.severity;
    case 'name':
      return signal.name;
    case 'type':
      return signal.type;
    case 'environment':
      return signalEnvironment(signal);
    default:
      return undefined;
  }
};

/**
 * The signal's group under a rule, readable: `source=metrics-alerts|serviceId=checkout`. Values are
 * compared without case; a missing value is `-`, so signals lacking a field group together.
 */
export const groupKeyOf = (rule: Pick<CorrelationRule, 'groupBy'>, signal: Signal): string =>
  rule.groupBy.map((field) => `${field}=${same(groupValue(field, signal) ?? '') || '-'}`).join('|');

/** Rule order: ascending `order`, then id, so the order is total and the same on every read. */
export const byRuleOrder = (a: CorrelationRule, b: CorrelationRule): number =>
  a.order - b.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
