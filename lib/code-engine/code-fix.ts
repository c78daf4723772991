/** A change on the incident's service shortly before it started, ranked by how likely it caused it. */
export interface SuspectChange {
  /** The change ticket's or the pipeline run's id. */
  id: string;
  kind: 'DEPLOYMENT' | 'PIPELINE_RUN';
  provider: string;
  repository: string;
  commitSha: string | null;
  /** A deployment's environment; null for a pipeline run. */
  environment: string | null;
  /** A pipeline run's branch; null for a deployment. */
  branch: string | null;
  /** The change ticket's or the run's status as stored. */
  status: string;
  summary: string;
  /** When the deployment was first seen or the run started. */
  at: string;
  minutesBeforeIncident: number;
  /** 0-1; docs/code-engine.md, "Suspect changes". */
  score: number;
  /** Why it is a suspect, in words, one reason a line. */
  reasons: string[];
}

/** One file of a fix: what the pull request does to it, and the hunks that do it (the inverted commit patch). */
export interface FixFile {
  path: string;
  change: 'modify' | 'create' | 'delete';
  /** Unified-diff hunks (`@@ ... @@` and their lines) from the file as the suspect commit left it. */
  patch: string;
}

export interface PullRequestRecord {
  number: number;
  url: string;
  repo: string;
  branch: string;
  baseBranch: string;
  openedAt: string;
  openedBy: string;
}

/** A proposed change for an incident, stored in the incident's partition, and the pull request that applies it. */
export interface CodeFix {
  fixId: string;
  incidentId: string;
  kind: 'REVERT_COMMIT';
  title: string;
  rationale: string;
  repository: string;
  commitSha: string;
  /** The whole change as one unified diff (`git apply` reads it). */
  diff: string;
  files: FixFile[];
  /** The suspect changes the fix rests on, as they were ranked when it was generated. */
  evidence: SuspectChange[];
  generatedAt: string;
  generatedBy: string;
  pullRequest: PullRequestRecord | null;
}
