/** The ingestion routes (`/api/v1/ingestion/<sender>`); each name is also the normalized `source` of its signals. */
export const INGESTION_SENDERS = [
  'codehost-a',
  'codehost-b',
  'codehost-c',
  'orchestrator',
  'paging',
  'metrics-alerts',
  'monitoring',
  'webhook',
] as const;
export type IngestionSender = (typeof INGESTION_SENDERS)[number];

export type SignalSeverity = 'LOW' | 'MEDIUM' | 'HIGH';

/** The spec's Signal input, as a sender's event becomes it. */
export interface CanonicalSignal {
  name: string;
  /** The ingestion route's sender name (`codehost-a`, `paging`, ...); `POST /signals` takes any. */
  source: string;
  /**
   * What kind of event this is. Deduplication keys on source, type and fingerprint, so a trigger and the
   * resolve that ends it carry the same type, and a 'record' never shares a type with a trigger.
   */
  type: string;
  severity: SignalSeverity;
  serviceId?: string;
  value?: number;
  /** The useful parts of the payload (repository, URLs, labels, the sender's own severity...), not all of it. */
  metadata: Record<string, unknown>;
  /** ISO 8601: when the sender says the event happened, else when it was received. */
  triggeredAt: string;
}

/**
 * The spec lists `codehost_a` and `codehost_b`; code host C's runs (one per workflow) are `codehost_c`, so its
 * runs are listed and filtered the same way.
 */
export type PipelineProvider = 'codehost_a' | 'codehost_b' | 'codehost_c';
export type PipelineRunStatus = 'success' | 'failure' | 'cancelled' | 'in_progress';
export type PipelineJobStatus = 'success' | 'failure' | 'skipped' | 'cancelled';

export interface PipelineJob {
  name: string;
  status: PipelineJobStatus;
  durationSeconds: number | null;
}

/** A pipeline run as one webhook describes it; the store upserts it by `runKey`. */
export interface PipelineRunInput {
  /** `<provider>-<providerRunId>`: the same run on every event about it, and its record's id. */
  runKey: string;
  provider: PipelineProvider;
  providerRunId: string;
  /**
   * 'run': the event describes the whole run. 'job': the event is about one job; the run fields are what
   * that event knows, enough to create the run when it is still unknown, and only `jobs` is news.
   */
  scope: 'run' | 'job';
  /** `owner/repo` (code host B: the project's full path, which may have subgroups). */
  repository: string;
  branch: string | null;
  commitSha: string | null;
  commitMessage: string | null;
  triggeredBy: string | null;
  status: PipelineRunStatus;
  startedAt: string;
  /** Null while in progress. */
  finishedAt: string | null;
  durationSeconds: number | null;
  /** Finished jobs only; merged into the stored run by name. */
  jobs: PipelineJob[];
  /** The provider's time of this state, so a late, older event never overwrites a newer one. */
  updatedAt: string;
  /** The whole webhook body. */
  rawPayload: unknown;
}

export type ChangeStatus = 'PENDING' | 'IN_PROGRESS' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED' | 'INACTIVE';

/** A deployment, which becomes a CHANGE ticket; the store upserts it by `changeKey`. */
export interface ChangeInput {
  /** `<provider>-<deploymentId>`. */
  changeKey: string;
  provider: Exclude<PipelineProvider, 'codehost_c'>;
  providerDeploymentId: string;
  summary: string;
  status: ChangeStatus;
  environment: string;
  repository: string;
  commitSha: string | null;
  /** E-mail when the sender gives one, else the login. */
  deployer: string | null;
  /** The provider's time of this state, so a late, older event never overwrites a newer one. */
  updatedAt: string;
}

export type NormalizedAction = 'trigger' | 'resolve' | 'record';

export interface NormalizedEvent {
  signal: CanonicalSignal;
  /**
   * Identity of the problem per sender (DECISIONS.md "Ingestion and signals"): readable, not hashed, and the
   * same across retries and re-sends of the same event.
   */
  fingerprint: string;
  /**
   * 'trigger' opens or merges; 'resolve' resolves the matching open signal; 'record' is informational (a ping,
   * a push, a successful pipeline): stored at LOW severity, never correlated into incidents.
   */
  action: NormalizedAction;
  pipelineRun?: PipelineRunInput;
  change?: ChangeInput;
}

export type Normalizer = (body: unknown, headers: Record<string, string>, receivedAt: Date) => NormalizedEvent[];
