/**
 * What the analysis engine knows about an incident when it reasons: facts gathered from the workspace by
 * the evidence checks (lib/analysis/evidence), each with an id that every claim of a reasoning cites.
 * Defined beside the reasoner port because every engine, the default one and the model adapters, reads it.
 */
export const EVIDENCE_KINDS = [
  'DEPLOY',
  'PIPELINE_RUN',
  'SIGNAL',
  'UPSTREAM_SIGNAL',
  'DEPENDENT_SIGNAL',
  'UPSTREAM_INCIDENT',
  'SIMILAR_INCIDENT',
  'PATTERN',
] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/** The check that found an item (docs/analysis.md, "Evidence checks"). */
export const EVIDENCE_CHECKS = [
  'recent-changes',
  'incident-signals',
  'upstream-services',
  'similar-incidents',
  'learned-patterns',
] as const;
export type EvidenceCheck = (typeof EVIDENCE_CHECKS)[number];

export interface EvidenceItem {
  /** `<kind>:<the source record's id>`, e.g. `deploy:codehost_a-145988746`, `signal:01J...`: stable across runs. */
  id: string;
  kind: EvidenceKind;
  check: EvidenceCheck;
  /** The service it concerns, by name as the service map spells it; null when none is known. */
  service: string | null;
  /** When it happened (a deploy's creation, when a signal fired, an incident's start), not when it was heard of. */
  at: string | null;
  /** One line, technical. */
  summary: string;
  /** 0-1: how much this item alone says about the cause (docs/analysis.md, "Strength"). */
  strength: number;
  /** The source's own fields that reports and remediation quote (repository, commitSha, severity, ...). */
  details: Record<string, string | number | null>;
}

/** The incident as the engine sees it. */
export interface IncidentContext {
  id: string;
  summary: string;
  description: string | null;
  impactSummary: string | null;
  blastRadius: string | null;
  priority: string;
  status: string;
  environment: string | null;
  /** The incident's service: its `serviceArea`, else the service of its first linked signal. */
  service: string | null;
  /** When the first linked signal fired (its `signalTime`), else the incident's creation. */
  startedAt: string;
  createdAt: string;
  resolvedAt: string | null;
}

/** The incident's service in the service map: what it depends on and what depends on it, by name. */
export interface ServiceContext {
  name: string;
  upstreams: string[];
  dependents: string[];
  /**
   * The map's edges among these services, each a dependent and the upstream it calls, by name: the paths a
   * failure can travel. Absent from evidence gathered before it was kept (every upstream is then taken as direct).
   */
  dependencies?: { service: string; upstream: string }[];
  /** The owner team of each of these services that has one, by service name. */
  teams?: Record<string, string>;
}

export interface CheckRun {
  check: EvidenceCheck;
  /** How many items it found. */
  found: number;
  /** Why it found nothing or could not run, when that is worth saying. */
  note: string | null;
}

export interface Evidence {
  incident: IncidentContext;
  service: ServiceContext | null;
  items: EvidenceItem[];
  checks: CheckRun[];
  /** When the checks ran: what the analysis knows stops here, and its texts say "as of" this time. */
  gatheredAt: string;
  /** The workspace's IANA zone, in which texts tell times; absent from evidence gathered before it was kept (UTC). */
  timezone?: string;
}
