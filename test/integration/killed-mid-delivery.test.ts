import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFixture, withFields } from '../ingestion/support.ts';
import { createTenant, postRaw, SIGNALS } from '../ingestion-routes/support.ts';
import { spawnStartScript } from '../support/start-script.ts';
import { GENEROUS_RATE_LIMITS, requester, type HttpClient, type HttpReply } from '../support/local-stack.ts';

/** The service in a child process of its own, so it can be killed as a crash kills it: no clean stop. */
const startService = async (dataDir: string) => {
  const child = spawnStartScript(
    { PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMITS: GENEROUS_RATE_LIMITS },
    { detached: true },
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /running at (http:\/\/\S+)/.exec(output)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}: ${output}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async (): Promise<void> => {
    process.kill(-(child.pid ?? 0), 'SIGKILL');
    await exited;
  };
  return { client: { request: requester(url) } satisfies HttpClient, kill };
};

/** Deliveries kept in flight at once, each a new incident of the paging tool, until the process dies. */
const IN_FLIGHT = 8;
const KILL_AFTER_MS = 1_500;

describe('a service killed while deliveries are being stored', () => {
  it('never answered 2xx for an event it had not stored, before the kill or after the restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'incident-service-kill-'));
    const pagerDuty = loadFixture('paging', 'triggered_v3.json');
    try {
      const first = await startService(dataDir);
      const tenant = await createTenant(first.client);
      const deliver = (client: HttpClient, id: string): Promise<HttpReply | undefined> => {
        const raw = JSON.stringify(withFields(pagerDuty.body, { 'event.data.id': `P${id}` }));
        const headers = { ...pagerDuty.headers, 'x-webhook-id': id };
        return postRaw(client, 'paging', raw, headers, { headers: tenant.keyHeaders }).catch(() => undefined);
      };

      // A steady stream of deliveries when the process dies: some answered, some cut off mid-way.
      const beforeKill = new Map<string, HttpReply | undefined>();
      let killed = false;
      const sender = async (): Promise<void> => {
        while (!killed) {
          const id = randomUUID();
          beforeKill.set(id, undefined);
          beforeKill.set(id, await deliver(first.client, id));
        }
      };
      const senders = Array.from({ length: IN_FLIGHT }, sender);
      await new Promise((resolve) => setTimeout(resolve, KILL_AFTER_MS));
      killed = true;
      await first.kill();
      await Promise.all(senders);

      const second = await startService(dataDir);
      try {
        const signalExists = async (signalId: string): Promise<boolean> =>
          (await second.client.request('GET', `${SIGNALS}/${signalId}`, undefined, tenant.admin.auth)).status === 200;

        // Every delivery the sender saw accepted was stored before the answer.
        const accepted = [...beforeKill.values()].filter((reply) => reply?.status === 202);
        expect(accepted.length).toBeGreaterThan(0);
        for (const reply of accepted) expect(await signalExists(reply!.body.data.signalId)).toBe(true);

        // Everything redelivered at once: accepted only with a stored signal, else a retryable 503, never a 500.
        const redelivered = await Promise.all([...beforeKill.keys()].map((id) => deliver(second.client, id)));
        for (const reply of redelivered) {
          expect([202, 503], reply?.text).toContain(reply?.status);
          if (reply?.status === 202) expect(await signalExists(reply.body.data.signalId)).toBe(true);
          else expect(Number(reply?.headers.get('retry-after'))).toBeGreaterThan(0);
        }
      } finally {
        await second.kill();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
