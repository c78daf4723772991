import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

/** The stack as `npm start` runs it, queue workers included: a webhook in, an incident out. */
describe('a webhook through ingestion, the queue and correlation', () => {
  let client: TestClient;
  let admin: SignedIn;
  let key: string;
  beforeAll(async () => {
    client = await startTestStack(':memory:', undefined, { workers: true });
    admin = await signUpBusiness(client);
    const created = await client.request(
      'POST',
      '/api/v1/apikey/createapikey',
      { name: 'alerts', environment: 'PRODUCTION', scopes: ['ingestion:write', 'incidents:read'] },
      admin.auth,
    );
    key = created.body.data.key;
  });
  afterAll(() => client.stack.stop());

  const alert = { source: 'checkout', title: 'Payment errors above 5%', severity: 'critical', status: 'firing' };

  it('opens one incident for a critical alert, and a repeated delivery only adds an occurrence', async () => {
    const first = await client.request('POST', '/api/v1/ingestion/webhook', alert, { 'x-api-key': key });
    expect(first.status).toBe(202);
    expect(first.body.data).toMatchObject({ deduplicated: false, source: 'webhook' });
    await client.stack.workers?.idle();

    const incidents = await client.request('GET', '/api/v1/incident-ticket', undefined, { 'x-api-key': key });
    expect(incidents.body.meta.total).toBe(1);
    const signal = await client.request('GET', `/api/v1/signals/${first.body.data.signalId}`, undefined, admin.auth);
    expect(signal.body.data.incidentId).toBe(incidents.body.data[0].id);

    const again = await client.request('POST', '/api/v1/ingestion/webhook', alert, { 'x-api-key': key });
    expect(again.body.data).toMatchObject({ signalId: first.body.data.signalId, deduplicated: true });
    await client.stack.workers?.idle();
    expect(
      (await client.request('GET', '/api/v1/incident-ticket', undefined, { 'x-api-key': key })).body.meta.total,
    ).toBe(1);
    const merged = await client.request('GET', `/api/v1/signals/${first.body.data.signalId}`, undefined, admin.auth);
    expect(merged.body.data.occurrences).toBe(2);
  });

  it("tags the workers' log lines with the request id of the delivery that caused them", async () => {
    const level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = 'info';
    const lines: string[] = [];
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      return true;
    });
    try {
      const delivery = await client.request(
        'POST',
        '/api/v1/ingestion/webhook',
        { ...alert, title: 'Queue depth growing' },
        { 'x-api-key': key },
      );
      await client.stack.workers?.idle();
      const requestId = delivery.headers.get('x-request-id');
      const correlated = lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((entry) => entry.message === 'signal correlated' && entry.signalId === delivery.body.data.signalId);
      expect(correlated).toHaveLength(1);
      expect(correlated[0]?.requestId).toBe(requestId);
    } finally {
      stdout.mockRestore();
      process.env.LOG_LEVEL = level;
    }
  });
});
