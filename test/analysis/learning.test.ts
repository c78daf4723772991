import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { createTenant } from '../ingestion-routes/support.ts';
import type { SignedIn } from '../support/accounts.ts';
import { ASSISTANT, analyse, mapServices, postSignal } from './support.ts';
import { createIncident } from '../support/incidents.ts';

describe('learning from outcomes', () => {
  let client: TestClient;
  let admin: SignedIn;

  const learn = (incidentId: string, outcome: string) =>
    client.request('POST', `${ASSISTANT}/learn`, { incidentId, outcome }, admin.auth);
  const patterns = async () => (await client.request('GET', `${ASSISTANT}/patterns`, undefined, admin.auth)).body.data;
  const databaseIncident = async () => {
    await postSignal(client, admin, { name: 'orders-db connections exhausted', serviceId: 'orders-db' });
    await postSignal(client, admin, { name: 'hello-world 5xx', serviceId: 'hello-world' });
    const incidentId = (await createIncident(client, admin.auth, { serviceArea: 'hello-world' })).id;
    await analyse(client, admin, incidentId);
    return incidentId;
  };

  beforeAll(async () => {
    client = await startTestStack();
    ({ admin } = await createTenant(client, 'Learning Co'));
    await mapServices(client, admin, ['hello-world', 'orders-db'], [['hello-world', 'orders-db']]);
  });
  afterAll(() => client.stack.stop());

  it('needs a completed analysis, then keeps one outcome per incident, the latest winning', async () => {
    const bare = (await createIncident(client, admin.auth, { summary: 'Not analysed' })).id;
    expect((await learn(bare, 'RESOLVED')).status).toBe(409);

    const first = await databaseIncident();
    const degraded = await learn(first, 'DEGRADED');
    expect(degraded.status, degraded.text).toBe(200);
    expect(degraded.body.data).toMatchObject({ incidentId: first, outcome: 'DEGRADED', previousOutcome: null });
    const resolved = await learn(first, 'RESOLVED');
    expect(resolved.body.data).toMatchObject({ outcome: 'RESOLVED', previousOutcome: 'DEGRADED' });

    const [pattern] = await patterns();
    expect(pattern).toMatchObject({
      patternId: degraded.body.data.patternId,
      description: 'Failures of orders-db disrupt hello-world',
      occurrences: 1,
      affectedServices: ['hello-world', 'orders-db'],
      outcomes: { RESOLVED: 1, DEGRADED: 0, NEUTRAL: 0, WORSENED: 0 },
    });
    expect(pattern.suggestedFix).toMatch(/^Restore orders-db first/);
    expect(pattern.firstSeen <= pattern.lastSeen).toBe(true);
  });

  it('counts a second incident of the same kind, and feeds the pattern back into the next analysis', async () => {
    const second = await databaseIncident();
    await learn(second, 'RESOLVED');
    const [pattern] = await patterns();
    expect(pattern).toMatchObject({ occurrences: 2, outcomes: { RESOLVED: 2 } });
    const resolved = await client.request(
      'POST',
      `/api/v1/incident-ticket/resolve/${second}`,
      { resolution: 'Restarted orders-db; connections recovered.' },
      admin.auth,
    );
    expect(resolved.status, resolved.text).toBe(200);

    const third = await databaseIncident();
    const latest = await client.request('GET', `${ASSISTANT}/analysis/${third}`, undefined, admin.auth);
    const { evidence, remediationOptions } = latest.body.data;
    const cited = evidence.map((item: { id: string }) => item.id);
    expect(cited).toContain(`pattern:${pattern.patternId}`);
    const texts = [...evidence.map((item: { summary: string }) => item.summary), ...remediationOptions].join('\n');
    expect(texts).toMatch(/the fix that worked for this pattern before/);
    // Counts and what resolved a similar incident read as sentences (issue 42).
    expect(texts).toContain('2 occurrences, the fix worked 2 times');
    expect(texts).toMatch(
      new RegExp(
        `Check whether what resolved the similar incident ${second} \\(".+"\\) in [\\w ]+ applies here; its responders wrote: "Restarted orders-db; connections recovered\\."`,
      ),
    );
    expect(texts).not.toMatch(/\(s\)/);
  });
});
