import { pick } from '#lib/contract/view-fields.ts';
import type { Change } from '#lib/changes/change.ts';
import { recentChangesRepository } from '#lib/changes/recent-changes-repository.ts';
import type { Incident } from '#lib/incidents/incident.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { PipelineRunSummary } from '#lib/pipelines/pipeline-run.ts';
import { recentRunsRepository } from '#lib/pipelines/recent-runs-repository.ts';
import { filterKey } from '#lib/store/filter-key.ts';
import type { SuspectChange } from './code-fix.ts';

/** How far before the incident a change is still a suspect: "shortly before", and a bounded read. */
export const SUSPECT_WINDOW_HOURS = 6;
const WINDOW_MS = SUSPECT_WINDOW_HOURS * 60 * 60 * 1000;
const MAX_SUSPECTS = 10;

/**
 * How suspicious a change is by kind and outcome before time and match weigh in: a deployment that went
 * out is the classic cause; a failed one may have half rolled out; a pipeline run only builds and tests
 * unless it deploys, and a failed run rarely ships anything. Statuses left out never shipped anything.
 */
const DEPLOYMENT_WEIGHT: Record<string, number> = { SUCCEEDED: 1, IN_PROGRESS: 0.9, FAILED: 0.6 };
const RUN_WEIGHT: Record<string, number> = { success: 0.7, in_progress: 0.5, failure: 0.4 };

/** A repository named in the incident's own text is a surer match than a service named like the repository. */
const MENTIONED = 1;
const SERVICE_NAMED = 0.9;

interface Match {
  strength: number;
  reason: string;
}

/** What ties a repository to the incident: its full name in the incident's text, or a service named like it. */
const matchOf = (incident: Incident, repository: string): Match | undefined => {
  const fullName = repository.toLowerCase();
  const text = [incident.summary, incident.description, incident.techDescription, incident.source]
    .filter(Boolean)
    .join('\n')
    .toLowerCase();
  if (text.includes(fullName)) return { strength: MENTIONED, reason: `the incident names ${repository}` };
  const name = fullName.slice(fullName.lastIndexOf('/') + 1);
  const services = (incident.serviceArea ?? '').split(',').map((service) => service.trim().toLowerCase());
  const service = services.find((candidate) => candidate && (candidate === name || candidate === fullName));
  if (service)
    return { strength: SERVICE_NAMED, reason: `the incident's service ${service} is built from ${repository}` };
  return undefined;
};

/** 1 at the incident's start, falling linearly to 0.1 at the window's far end. */
const recency = (minutesBefore: number): number => Math.max(0.1, 1 - (minutesBefore * 60 * 1000) / WINDOW_MS);

const minutesBetween = (earlier: string, later: string): number =>
  Math.max(0, Math.round((Date.parse(later) - Date.parse(earlier)) / 60_000));

const round = (value: number): number => Math.round(value * 100) / 100;

const deploymentSuspect = (incident: Incident, change: Change): SuspectChange | undefined => {
  const weight = DEPLOYMENT_WEIGHT[change.status];
  const match = matchOf(incident, change.repository);
  if (weight === undefined || !match) return undefined;
  // A deployment to another environment cannot have caused this one's incident.
  if (incident.environment && filterKey(incident.environment) !== filterKey(change.environment)) return undefined;
  const minutesBefore = minutesBetween(change.createdAt, incident.createdAt);
  return {
    ...pick(change, ['id', 'provider', 'repository', 'commitSha', 'environment', 'status', 'summary']),
    kind: 'DEPLOYMENT',
    branch: null,
    at: change.createdAt,
    minutesBeforeIncident: minutesBefore,
    score: round(weight * match.strength * recency(minutesBefore)),
    reasons: [
      match.reason,
      `deployment ${change.status.toLowerCase()} to ${change.environment} ${minutesBefore} min before the incident`,
    ],
  };
};

const runSuspect = (incident: Incident, run: PipelineRunSummary): SuspectChange | undefined => {
  const weight = RUN_WEIGHT[run.status];
  const match = matchOf(incident, run.repository);
  if (weight === undefined || !match) return undefined;
  const minutesBefore = minutesBetween(run.startedAt, incident.createdAt);
  return {
    ...pick(run, ['id', 'provider', 'repository', 'commitSha', 'branch', 'status']),
    kind: 'PIPELINE_RUN',
    environment: null,
    summary: `Pipeline run of ${run.repository}${run.branch ? `@${run.branch}` : ''}`,
    at: run.startedAt,
    minutesBeforeIncident: minutesBefore,
    score: round(weight * match.strength * recency(minutesBefore)),
    reasons: [match.reason, `pipeline run ${run.status} started ${minutesBefore} min before the incident`],
  };
};

/**
 * The deployments (change tickets) and pipeline runs on the incident's repositories in the
 * `SUSPECT_WINDOW_HOURS` before it was opened, most suspect first (highest score, then the latest).
 * A change is on the incident's repository when the incident's text names the repository (`owner/name`)
 * or one of its services (`serviceArea`) is named like the repository; docs/code-engine.md.
 */
export const findSuspectChanges = async (
  { ports: { table }, workspaceId }: Scope,
  incident: Incident,
): Promise<SuspectChange[]> => {
  const to = incident.createdAt;
  const from = new Date(Date.parse(to) - WINDOW_MS).toISOString();
  const [changes, runs] = await Promise.all([
    recentChangesRepository(table, workspaceId).listChangesHappenedBetween(from, to),
    recentRunsRepository(table, workspaceId).listRunsStartedBetween(from, to),
  ]);
  const suspects = [
    ...changes.map((change) => deploymentSuspect(incident, change)),
    ...runs.map((run) => runSuspect(incident, run)),
  ].filter((suspect): suspect is SuspectChange => suspect !== undefined);
  return suspects
    .sort((a, b) => b.score - a.score || b.at.localeCompare(a.at) || a.id.localeCompare(b.id))
    .slice(0, MAX_SUSPECTS);
};
