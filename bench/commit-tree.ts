import { execFile } from 'node:child_process';
import { copyFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const THIS_TREE = new URL('..', import.meta.url).pathname;

/** The files that start a bench service, copied into the other tree so both sides start the same way. */
const DRIVER = ['bench/service-process.ts', 'bench/bench-service.ts'];

const exists = async (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/**
 * A git worktree of `commit` under the temp directory, `npm ci`'d, with this tree's bench driver in it:
 * the side-by-side bench runs that commit's service exactly as it runs this one (the local stack runs from
 * source, so `npm ci` is its whole build). Kept between runs, named by the commit's full id, so a second
 * comparison starts at once; `git worktree prune` forgets it once the directory is removed.
 */
export const commitTree = async (commit: string): Promise<{ tree: string; id: string }> => {
  const git = async (...args: string[]) => (await run('git', args, { cwd: THIS_TREE })).stdout.trim();
  const id = await git('rev-parse', '--verify', `${commit}^{commit}`);
  const tree = join(tmpdir(), `incident-bench-${id}`);
  if (!(await exists(join(tree, 'package.json')))) await git('worktree', 'add', '--detach', tree, id);
  if (!(await exists(join(tree, 'node_modules', '.package-lock.json'))))
    await run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: tree, maxBuffer: 64 * 1024 * 1024 });
  for (const file of DRIVER) await copyFile(join(THIS_TREE, file), join(tree, file));
  return { tree, id };
};
