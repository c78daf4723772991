import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixture } from '../ingestion/support.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { createTenant, expectAccepted, listSignals, postRaw, type Tenant } from './support.ts';

/**
 * Alertmanager's resolve of an alert delivered before its firing (a retried firing, or both at once): the
 * firing is of the episode the resolve ended, so it must not open a signal that nothing would resolve.
 */
describe('a resolve delivered before its firing', () => {
  let client: TestClient;
  let tenant: Tenant;
  beforeAll(async () => {
    client = await startTestStack();
    tenant = await createTenant(client, 'Out of Order Co');
  });
  afterAll(() => client.stack.stop());

  const post = async (file: string) => {
    const { raw, headers } = loadFixture('metrics-alerts', file);
    return expectAccepted(await postRaw(client, 'metrics-alerts', raw, headers, { headers: tenant.keyHeaders }));
  };

  it('answers the late firing with the resolved signal, and a later episode opens a new one', async () => {
    const resolved = await post('captured-resolved.json');
    const firing = await post('captured.json');
    expect(firing).toMatchObject({ signalId: resolved.signalId, deduplicated: true });
    const stored = await listSignals(client, tenant.keyHeaders);
    expect(stored.map(({ id, status }) => ({ id, status }))).toEqual([{ id: resolved.signalId, status: 'RESOLVED' }]);

    const { raw, headers } = loadFixture('metrics-alerts', 'captured.json');
    const later = raw.replaceAll('2026-11-22T02:00:16.633313464Z', '2026-11-22T03:15:00Z');
    const next = expectAccepted(
      await postRaw(client, 'metrics-alerts', later, headers, { headers: tenant.keyHeaders }),
    );
    expect(next).toMatchObject({ deduplicated: false });
    expect(next.signalId).not.toBe(resolved.signalId);
  });
});
