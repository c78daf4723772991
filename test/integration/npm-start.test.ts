import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnStartScript } from '../support/start-script.ts';

const startService = (dataDir: string) => {
  const child = spawnStartScript({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
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

/** A queued message no worker takes (dead-letter queues have none), so it must travel through every stop. */
const PARKED = {
  queues: { 'ingestion-dlq': [{ body: 'parked on the ingestion dead-letter queue' }] },
  inFlightNotSaved: 0,
};

/**
 * `npm start` as a user runs it: npm, the shell, tsx and node in one process group of their own, which a
 * terminal's Ctrl-C (SIGINT) or `kill -TERM -<pgid>` signals all at once.
 */
const startGroup = (dataDir: string) => {
  const child = spawn('npm', ['start'], {
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => /running at http/.test(output) && resolve());
    child.once('exit', () => reject(new Error(`npm start exited before it was ready: ${output}`)));
  });
  // 'close', not 'exit': npm may exit before node has finished; the output pipes close when all of them have.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return { child, ready, closed, output: () => output };
};

describe('stopping npm start as a terminal does', () => {
  it('stops cleanly on one group SIGINT or SIGTERM, every time, keeping the queued messages', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'incident-service-stop-'));
    const saved = join(dataDir, 'queues.json');
    try {
      await writeFile(saved, JSON.stringify(PARKED));
      for (const signal of ['SIGINT', 'SIGTERM', 'SIGINT', 'SIGTERM'] as const) {
        const service = startGroup(dataDir);
        await service.ready;
        process.kill(-(service.child.pid as number), signal);
        await service.closed;
        // npm itself ends by the signal it passed on, as a shell does; node's own words tell how it stopped.
        const output = service.output();
        expect(output, signal).not.toContain('without a clean stop');
        expect(JSON.parse(await readFile(saved, 'utf8')), `${signal}: ${output}`).toMatchObject(PARKED);
        expect(output, signal).toContain('Incident service stopped cleanly, 1 queued message saved for the next start');
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
