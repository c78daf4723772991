import { expectNoInstants } from './analysis-texts.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { createTenant } from '../ingestion-routes/support.ts';
import { ASSISTANT, JARGON, analyse, deployHelloWorld, mapServices, postSignal } from './support.ts';
import { createIncident } from '../support/incidents.ts';

const MAP: [string, string][] = [
  ['checkout', 'hello-world'],
  ['hello-world', 'orders-db'],
];

describe('analysis: different evidence, different root causes', () => {
  let client: TestClient;

  beforeAll(async () => {
    client = await startTestStack();
  });
  afterAll(() => client.stack.stop());

  const reportOf = async (as: { auth: Record<string, string> }, analysisId: string, audience: string) => {
    const reply = await client.request('POST', `${ASSISTANT}/report`, { analysisId, audience }, as.auth);
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data.content as string;
  };

  it('names the deploy of the service when a deploy of it came before its alerts and its dependents', async () => {
    const { admin, keyHeaders } = await createTenant(client, 'Deploy Co');
    await mapServices(client, admin, ['checkout', 'hello-world', 'orders-db'], MAP);
    await deployHelloWorld(client, keyHeaders);
    const own = await postSignal(client, admin, { name: 'hello-world 5xx above 5%', serviceId: 'hello-world' });
    const dependent = await postSignal(client, admin, { name: 'checkout errors', serviceId: 'checkout' });
    const incidentId = (
      await createIncident(client, admin.auth, {
        serviceArea: 'hello-world',
        description: 'Some customers cannot pay',
      })
    ).id;

    const analysis = await analyse(client, admin, incidentId);
    expect(analysis.status).toBe('COMPLETE');
    expect(analysis.rootCause).toMatch(/Deployment codehost_a-145988746 of Codertocat\/Hello-World/);
    expect(analysis.hypothesis).toMatch(/hello-world/);
    expect(analysis.confidence).toBeGreaterThan(0.8);
    expect(analysis.citations.rootCause).toEqual(['deploy:codehost_a-145988746']);
    expect(analysis.citations.hypothesis).toEqual(
      expect.arrayContaining(['deploy:codehost_a-145988746', `signal:${own}`, `signal:${dependent}`]),
    );
    const evidenceIds = analysis.evidence.map((item: { id: string }) => item.id);
    for (const ids of [...analysis.citations.remediationOptions, ...analysis.citations.contributingFactors]) {
      for (const id of ids) expect(evidenceIds).toContain(id);
    }
    expect(analysis.remediationOptions[0]).toMatch(/^Roll hello-world back .* revert commit f95f852/);
    expect(analysis.engine).toEqual({ name: 'default', modelId: null, fallbackReason: null });

    const leadership = await reportOf(admin, analysis.analysisId, 'LEADERSHIP');
    const engineer = await reportOf(admin, analysis.analysisId, 'ENGINEER');
    expect(leadership).not.toMatch(JARGON);
    expect(leadership).toMatch(/software update released to the hello-world service/);
    expect(leadership).toMatch(/Customers: Some customers cannot pay/);
    expect(leadership).toMatch(/Time to recover: Not recovered yet/);
    expect(engineer).toMatch(/git revert --no-edit f95f852bd8fca8fcc58a9a2d6c842781e32a215e/);
    expect(engineer).toMatch(/## Timeline/);
    expect(engineer).toContain('[deploy:codehost_a-145988746]');
    const stored = await client.request('GET', `${ASSISTANT}/analysis/${incidentId}`, undefined, admin.auth);
    expect(stored.body.data.reports.map((report: { audience: string }) => report.audience)).toEqual([
      'LEADERSHIP',
      'ENGINEER',
    ]);
    await expectNoInstants(client, admin, analysis);
  });

  it('names the upstream database when it alerted first and nothing was deployed', async () => {
    const { admin } = await createTenant(client, 'Database Co');
    await mapServices(client, admin, ['checkout', 'hello-world', 'orders-db'], MAP);
    const database = await postSignal(client, admin, {
      name: 'orders-db connections exhausted',
      serviceId: 'orders-db',
    });
    await postSignal(client, admin, { name: 'hello-world 5xx above 5%', serviceId: 'hello-world' });
    await postSignal(client, admin, { name: 'checkout errors', serviceId: 'checkout' });
    const incidentId = (await createIncident(client, admin.auth, { serviceArea: 'hello-world' })).id;

    const analysis = await analyse(client, admin, incidentId);
    await expectNoInstants(client, admin, analysis);
    expect(analysis.rootCause).toMatch(/^A failure of orders-db, upstream of hello-world/);
    expect(analysis.rootCause).not.toMatch(/Deployment/);
    expect(analysis.citations.rootCause).toEqual([`signal:${database}`]);
    expect(analysis.remediationOptions[0]).toMatch(/^Restore orders-db first/);
    const leadership = await reportOf(admin, analysis.analysisId, 'LEADERSHIP');
    expect(leadership).not.toMatch(JARGON);
    expect(leadership).toMatch(/A problem in orders-db, a system that hello-world relies on/);
  });

  it('says the cause is unknown, with low confidence, when nothing points anywhere', async () => {
    const { admin } = await createTenant(client, 'Quiet Co');
    const incidentId = (await createIncident(client, admin.auth, { summary: 'Something odd' })).id;
    const analysis = await analyse(client, admin, incidentId);
    await expectNoInstants(client, admin, analysis);
    expect(analysis.rootCause).toMatch(/^Unknown/);
    expect(analysis.confidence).toBeLessThan(0.3);
    expect(analysis.citations.rootCause).toEqual([]);
  });
});
