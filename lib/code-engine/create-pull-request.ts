import { ConflictError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { findIncident } from '#lib/incidents/get-incident.ts';
import type { FixFile, PullRequestRecord } from './code-fix.ts';
import { type StoredCodeFix, codeFixRepository } from './code-fix-repository.ts';
import { type CodeHostClient, codeHostClient } from './code-host-client.ts';
import { codeHostConnection } from './code-host-settings.ts';
import type { CreatePullRequestInput } from './schemas.ts';
import { applyHunks, parseHunks } from './unified-patch.ts';

type FileWrite =
  | { path: string; action: 'write'; text: string; sha?: string }
  | { path: string; action: 'delete'; sha: string };

/** What the fix does to one file of the base branch, or why it no longer can. */
const planFile = async (
  client: CodeHostClient,
  [owner, repo]: [string, string],
  ref: string,
  file: FixFile,
): Promise<FileWrite | string> => {
  const current = await client.readFile(owner, repo, file.path, ref);
  const hunks = parseHunks(file.patch) ?? [];
  if (file.change === 'create') {
    if (current) return `${file.path}: exists again on the base branch`;
    return { path: file.path, action: 'write', text: applyHunks('', hunks) ?? '' };
  }
  if (!current) return `${file.path}: is no longer on the base branch`;
  const text = applyHunks(current.text, hunks);
  if (text === undefined) return `${file.path}: has changed since the commit, the revert does not apply`;
  if (file.change === 'delete') {
    return text === ''
      ? { path: file.path, action: 'delete', sha: current.sha }
      : `${file.path}: has changed since the commit`;
  }
  return { path: file.path, action: 'write', text, sha: current.sha };
};

const pullRequestBody = (fix: StoredCodeFix): string =>
  [
    fix.rationale,
    '',
    '### Evidence',
    ...fix.evidence.map(
      (suspect) => `- ${suspect.kind} \`${suspect.id}\` (score ${suspect.score}): ${suspect.reasons.join('; ')}`,
    ),
    '',
    `Proposed by the incident service's code engine for incident ${fix.incidentId} (fix ${fix.fixId}).`,
  ].join('\n');

/** One branch per fix, so a second pull request of the same fix meets the first one's branch. */
const branchOf = (fix: StoredCodeFix): string =>
  `incident-fix/${fix.incidentId.toLowerCase()}-${fix.fixId.slice(-8).toLowerCase()}`;

/**
 * Opens a pull request applying the incident's fix to `repo` on code host A: a branch from `baseBranch`,
 * one commit per file through the contents API, then the pull request, which the fix records. Every
 * file's new text is worked out before anything is written, so a fix that no longer applies (409)
 * leaves the repository untouched.
 */
export const createPullRequest = async (
  scope: Scope,
  { id, repo, baseBranch }: CreatePullRequestInput & { id: string },
): Promise<{ fixId: string; pullRequest: PullRequestRecord }> => {
  const incident = await findIncident(scope, id);
  const fixes = codeFixRepository(scope.ports.table, scope.workspaceId);
  const fix = await fixes.findFix(incident.id);
  if (!fix) {
    throw new ConflictError(
      `Incident ${incident.id} has no fix yet; POST /api/v1/code-engine/generate-fix/${incident.id} first`,
    );
  }
  if (fix.pullRequest) {
    throw new ConflictError(`A pull request is already open for this fix: ${fix.pullRequest.url}`);
  }
  const client = codeHostClient(await codeHostConnection(scope));
  const [owner = '', name = ''] = repo.split('/');
  const base = await client.branchHead(owner, name, baseBranch);
  const plans = await Promise.all(fix.files.map((file) => planFile(client, [owner, name], base, file)));
  const problems = plans.filter((plan): plan is string => typeof plan === 'string');
  if (problems.length > 0) {
    throw new ConflictError(`The fix no longer applies to ${repo}@${baseBranch}; generate it again`, problems);
  }
  const branch = branchOf(fix);
  await client.createBranch(owner, name, branch, base);
  const message = (path: string) => `Revert ${fix.commitSha.slice(0, 7)} in ${path} (${incident.id})`;
  // One at a time: each commit moves the branch the next one is made on.
  for (const plan of plans as FileWrite[]) {
    if (plan.action === 'delete') {
      await client.deleteFile(owner, name, { path: plan.path, sha: plan.sha, branch, message: message(plan.path) });
    } else {
      await client.writeFile(owner, name, { ...plan, branch, message: message(plan.path) });
    }
  }
  const opened = await client.openPullRequest(owner, name, {
    title: fix.title,
    body: pullRequestBody(fix),
    head: branch,
    base: baseBranch,
  });
  const pullRequest: PullRequestRecord = {
    ...opened,
    repo,
    branch,
    baseBranch,
    openedAt: scope.ports.clock.now().toISOString(),
    openedBy: scope.actor,
  };
  if (!(await fixes.recordPullRequest(incident.id, fix.fixId, pullRequest))) {
    throw new ConflictError(`The fix was replaced while its pull request was opened: ${opened.url}`);
  }
  return { fixId: fix.fixId, pullRequest };
};
