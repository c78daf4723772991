import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

/**
 * The service as `npm start` runs it (`node --import tsx infra/local/main.ts`, without npm's own process
 * in between), its data in `dataDir`, on a free port. Answers its URL once it says it is running; `stop`
 * sends SIGTERM, as Ctrl-C does, and waits for the clean stop. What it logs at `error` (stderr) is kept.
 */
export const startServiceAsNpmStart = async (dataDir: string, env: Record<string, string> = {}) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/main.ts'], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const errors: string[] = [];
  createInterface({ input: child.stderr }).on('line', (line) => errors.push(line));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const running = /^Incident service running at (\S+)/.exec(line);
      if (running?.[1]) resolve(running[1]);
    });
    child.once('exit', (code) => reject(new Error(`the service exited (${code}) before it ran: ${errors.join('\n')}`)));
  });
  return {
    url,
    /** The lines it wrote to stderr (its `error` logs) so far. */
    errors,
    stop: async () => {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
};
