import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The `start` script's own command rather than `npm start`: npm does not pass on the exit code of a
 * child stopped by a signal, and the clean stop is what this test checks.
 */
const startCommand = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;

const startService = (dataDir: string) => {
  const [command = '', ...args] = startCommand.split(' ');
  const child = spawn(`node_modules/.bin/${command}`, args, {
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /running at (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${output}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, ready, exited };
};

describe('the start script', () => {
  it('serves health within 30 s and stops cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'incident-service-start-'));
    try {
      const startedAt = Date.now();
      const service = startService(dataDir);
      const url = await service.ready;
      const response = await fetch(`${url}/api/v1/health`);
      expect(response.status).toBe(200);
      expect(Date.now() - startedAt).toBeLessThan(30_000);
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
