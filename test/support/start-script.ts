import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';

const { start } = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts;

/**
 * The `start` script's own command, run without npm: npm does not pass on the exit code of a child
 * stopped by a signal, and these tests check how the service itself stops.
 */
export const spawnStartScript = (
  env: Record<string, string>,
  { detached = false }: { detached?: boolean } = {},
): ChildProcessWithoutNullStreams => {
  const [command, ...args] = start.split(' ');
  if (command !== 'node') throw new Error(`the start script should run node itself, not ${command}`);
  return spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: 'pipe', detached });
};
