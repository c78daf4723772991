import { nullsFor, pick } from '#lib/contract/view-fields.ts';
import { UnprocessableEntityError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { findIncident } from '#lib/incidents/get-incident.ts';
import type { Incident } from '#lib/incidents/incident.ts';
import type { CodeFix, SuspectChange } from './code-fix.ts';
import { type StoredCodeFix, codeFixRepository } from './code-fix-repository.ts';
import { codeHostClient } from './code-host-client.ts';
import { codeHostConnection } from './code-host-settings.ts';
import { revertCommit, unifiedDiff } from './revert-commit.ts';
import { SUSPECT_WINDOW_HOURS, findSuspectChanges } from './suspect-changes.ts';

export const codeFixView = (fix: StoredCodeFix): CodeFix => ({ ...fix, diff: unifiedDiff(fix.files) });

const incidentMetadata = (incident: Incident) => ({
  ...pick(incident, ['id', 'ticketId', 'summary', 'priority', 'status', 'createdAt']),
  ...nullsFor(incident, ['source', 'serviceArea', 'environment']),
});

/** The incident, the changes suspected of causing it (docs/code-engine.md) and the fix stored for it, if any. */
export const getCodeAnalysis = async (scope: Scope, incidentId: string) => {
  const incident = await findIncident(scope, incidentId);
  const [suspectChanges, fix] = await Promise.all([
    findSuspectChanges(scope, incident),
    codeFixRepository(scope.ports.table, scope.workspaceId).findFix(incident.id),
  ]);
  const to = incident.createdAt;
  const from = new Date(Date.parse(to) - SUSPECT_WINDOW_HOURS * 3_600_000).toISOString();
  return {
    incident: incidentMetadata(incident),
    window: { from, to },
    suspectChanges,
    fix: fix ? codeFixView(fix) : null,
  };
};

/** What the search looked at, so a 422 says what would have made a suspect. */
const searchedFor = (incident: Incident): string[] => [
  `serviceArea: ${incident.serviceArea ?? '(none)'}; a repository matches when the incident's text names it (owner/name) or a service is named like it`,
  `environment: ${incident.environment ?? '(any)'}`,
  `window: the ${SUSPECT_WINDOW_HOURS} hours before ${incident.createdAt}`,
];

const firstLine = (text: string): string => text.split('\n', 1)[0] ?? '';

const rationaleOf = (incident: Incident, suspect: SuspectChange, message: string, others: number): string =>
  [
    `Incident ${incident.id} was opened ${suspect.minutesBeforeIncident} min after ` +
      `${suspect.kind === 'DEPLOYMENT' ? `the deployment of ${suspect.repository} to ${suspect.environment}` : `a pipeline run of ${suspect.repository}`} ` +
      `at commit ${suspect.commitSha?.slice(0, 7)} ("${firstLine(message)}").`,
    `It is the most suspect change (score ${suspect.score}): ${suspect.reasons.join('; ')}.`,
    others > 0
      ? `${others} other suspect change${others === 1 ? '' : 's'} scored lower.`
      : 'No other change is suspect.',
    'Reverting the commit restores the code that ran before the incident; review the diff before merging.',
  ].join(' ');

/**
 * Proposes the revert of the most suspect change's commit, from that commit's diff on code host A, and
 * stores it as the incident's fix (replacing an earlier one). Nothing suspect, no commit to revert, or a
 * commit that cannot be reverted file by file: 422 with the reason, and nothing stored.
 */
export const generateFix = async (scope: Scope, incidentId: string): Promise<CodeFix> => {
  const incident = await findIncident(scope, incidentId);
  const suspects = await findSuspectChanges(scope, incident);
  if (suspects.length === 0) {
    throw new UnprocessableEntityError(
      `No suspect change for incident ${incident.id}: no deployment or pipeline run on its repositories shortly before it; no fix is proposed`,
      searchedFor(incident),
    );
  }
  const suspect = suspects.find((candidate) => candidate.commitSha && candidate.repository.includes('/'));
  if (!suspect?.commitSha) {
    throw new UnprocessableEntityError(
      `The suspect changes of incident ${incident.id} name no commit of an owner/repo repository to revert`,
      suspects.map((candidate) => `${candidate.id}: ${candidate.summary}`),
    );
  }
  const [owner = '', repo = ''] = suspect.repository.split('/');
  const commit = await codeHostClient(await codeHostConnection(scope)).getCommit(owner, repo, suspect.commitSha);
  const plan = revertCommit(commit);
  if ('problems' in plan) {
    throw new UnprocessableEntityError(
      `Commit ${commit.sha.slice(0, 7)} of ${suspect.repository} cannot be reverted automatically`,
      plan.problems,
    );
  }
  const { ports, workspaceId, actor } = scope;
  const fix: StoredCodeFix = {
    fixId: ports.ids.sortable(),
    incidentId: incident.id,
    kind: 'REVERT_COMMIT',
    title: `Revert "${firstLine(commit.message)}" (${commit.sha.slice(0, 7)}) for ${incident.id}`,
    rationale: rationaleOf(incident, suspect, commit.message, suspects.length - 1),
    repository: suspect.repository,
    commitSha: commit.sha,
    files: plan.files,
    evidence: suspects,
    generatedAt: ports.clock.now().toISOString(),
    generatedBy: actor,
    pullRequest: null,
  };
  await codeFixRepository(ports.table, workspaceId).saveFix(fix);
  return codeFixView(fix);
};
