import { pick } from '#lib/contract/view-fields.ts';
import { recentChangesRepository } from '#lib/changes/recent-changes-repository.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { recentRunsRepository } from '#lib/pipelines/recent-runs-repository.ts';
import type { EvidenceItem, IncidentContext } from '#lib/ports/reasoner/evidence.ts';
import { ownsRepository, type Service } from '#lib/service-map/service.ts';
import { minutesLate } from './lateness.ts';

/**
 * How long before the incident began a deploy or pipeline run still counts as a suspect, by the time it
 * happened (docs/analysis.md, "Time"): a webhook that arrives late places its change no later.
 */
export const CHANGE_WINDOW_MINUTES = 120;
/** A change this close before the start went out "shortly before" it; an older one is said with its lag. */
export const SHORTLY_BEFORE_MINUTES = 30;

const MINUTE = 60_000;

/** 1 for a change the moment before the start, falling to 0.5 at the window's far end. */
const recency = (at: string, startedAt: string): number => {
  const minutesBefore = Math.max(0, (Date.parse(startedAt) - Date.parse(at)) / MINUTE);
  return 1 - 0.5 * Math.min(1, minutesBefore / CHANGE_WINDOW_MINUTES);
};

const round = (value: number): number => Math.round(value * 100) / 100;

/** `; webhook 42 min late`, for a change whose first event arrived well after it happened. */
const lateness = ({ createdAt, receivedAt }: { createdAt: string; receivedAt: string }): string => {
  const minutes = minutesLate(createdAt, receivedAt);
  return minutes === null ? '' : `; webhook ${minutes} min late`;
};

/** A service whose changes are suspects, and how much they weigh (the incident's own 1, an upstream's less). */
export interface SuspectService extends Pick<Service, 'name' | 'repository'> {
  weight: number;
}

/**
 * Deploys (CHANGE tickets of any sender: code hosts, AWS deployment services, change events) and pipeline runs
 * of the incident's service and its upstreams in the `lookBackMinutes` before the incident began (the gathering
 * keeps those in the window before the failure they may explain). A repository belongs to a service by the
 * service map's rule (`ownsRepository`).
 */
export const recentChangesCheck = async (
  { ports: { table }, workspaceId }: Scope,
  incident: IncidentContext,
  services: SuspectService[],
  lookBackMinutes = CHANGE_WINDOW_MINUTES,
): Promise<EvidenceItem[]> => {
  const to = incident.startedAt;
  const from = new Date(Date.parse(to) - lookBackMinutes * MINUTE).toISOString();
  const [newestDeployments, newestRuns] = await Promise.all([
    recentChangesRepository(table, workspaceId).listChangesHappenedBetween(from, to),
    recentRunsRepository(table, workspaceId).listRunsStartedBetween(from, to),
  ]);
  // Oldest first: the evidence lists what changed in the order it happened.
  const deployments = newestDeployments.reverse();
  const runs = newestRuns.reverse();
  // The incident's own service first: a repository it and an upstream both claim is its own.
  const serviceOf = (repository: string) => services.find((service) => ownsRepository(service, repository));

  /** What every item of this check says alike: which check found it, and the service the change went to. */
  const aboutService = (service: { name: string }) => ({ check: 'recent-changes' as const, service: service.name });

  const deployItems = deployments.flatMap((deployment): EvidenceItem[] => {
    const service = serviceOf(deployment.repository);
    if (!service) return [];
    const failed = deployment.status === 'FAILED';
    return [
      {
        id: `deploy:${deployment.id}`,
        kind: 'DEPLOY',
        ...aboutService(service),
        at: deployment.createdAt,
        summary: `Deployment ${deployment.id} of ${deployment.repository}${deployment.commitSha ? `@${deployment.commitSha.slice(0, 7)}` : ''} to ${deployment.environment || 'an unnamed environment'} (${deployment.status}${lateness(deployment)})`,
        strength: round(Math.min(1, 0.9 * recency(deployment.createdAt, to) + (failed ? 0.05 : 0)) * service.weight),
        details: {
          changeId: deployment.id,
          ...pick(deployment, ['repository', 'commitSha', 'environment', 'status', 'deployer', 'receivedAt']),
        },
      },
    ];
  });
  const runItems = runs.flatMap((run): EvidenceItem[] => {
    const service = serviceOf(run.repository);
    if (!service || run.status === 'cancelled') return [];
    // A successful run on a branch is often the release itself; a failed one released nothing.
    const base = run.status === 'failure' ? 0.3 : 0.6;
    return [
      {
        id: `run:${run.id}`,
        kind: 'PIPELINE_RUN',
        ...aboutService(service),
        at: run.startedAt,
        summary: `Pipeline run ${run.id} of ${run.repository}${run.branch ? ` on ${run.branch}` : ''}${run.commitSha ? `@${run.commitSha.slice(0, 7)}` : ''}: ${run.status}`,
        strength: round(base * recency(run.startedAt, to) * service.weight),
        details: { runId: run.id, ...pick(run, ['repository', 'branch', 'commitSha', 'status']) },
      },
    ];
  });
  return [...deployItems, ...runItems];
};
