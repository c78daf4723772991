import type { FixFile } from './code-fix.ts';
import type { Commit } from './code-host-client.ts';
import { formatHunks, invertHunks, parseHunks } from './unified-patch.ts';

/** Beyond these, a revert is a job for a person with a checkout, not for the contents API call by call. */
const MAX_REVERT_FILES = 20;
const MAX_PATCH_CHARACTERS = 150_000;

/** What reverting a file's change does to the file: an added file goes, a removed one comes back. */
const REVERTED_CHANGE: Record<string, FixFile['change']> = {
  added: 'delete',
  removed: 'create',
  modified: 'modify',
  changed: 'modify',
};

export type RevertPlan = { files: FixFile[] } | { problems: string[] };

/** The commit's file patches inverted, or what keeps it from being reverted file by file. */
export const revertCommit = (commit: Commit): RevertPlan => {
  const problems: string[] = [];
  const files: FixFile[] = [];
  if (commit.files.length === 0) problems.push(`commit: ${commit.sha} changes no file`);
  if (commit.files.length > MAX_REVERT_FILES) {
    problems.push(`commit: changes ${commit.files.length} files, more than the ${MAX_REVERT_FILES} a fix may touch`);
  }
  for (const file of commit.files.slice(0, MAX_REVERT_FILES)) {
    const change = REVERTED_CHANGE[file.status];
    const hunks = file.patch === undefined ? undefined : parseHunks(file.patch);
    if (!change) problems.push(`${file.filename}: a ${file.status} file is not reverted automatically`);
    else if (!hunks) problems.push(`${file.filename}: code host A gave no text diff (binary or too large)`);
    else files.push({ path: file.filename, change, patch: formatHunks(invertHunks(hunks)) });
  }
  const size = files.reduce((sum, file) => sum + file.patch.length, 0);
  if (size > MAX_PATCH_CHARACTERS) problems.push(`commit: its diff is over ${MAX_PATCH_CHARACTERS} characters`);
  return problems.length > 0 ? { problems } : { files };
};

/** The files' patches as one unified diff with git's headers, which `git apply` takes as it is. */
export const unifiedDiff = (files: readonly FixFile[]): string =>
  files
    .map((file) =>
      [
        `diff --git a/${file.path} b/${file.path}`,
        ...(file.change === 'create' ? ['new file mode 100644'] : []),
        ...(file.change === 'delete' ? ['deleted file mode 100644'] : []),
        `--- ${file.change === 'create' ? '/dev/null' : `a/${file.path}`}`,
        `+++ ${file.change === 'delete' ? '/dev/null' : `b/${file.path}`}`,
        file.patch,
      ].join('\n'),
    )
    .join('\n')
    .concat('\n');
