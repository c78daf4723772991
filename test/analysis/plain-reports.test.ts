import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedIn } from '../support/accounts.ts';
import { GENEROUS_RATE_LIMITS, startTestStack, type TestClient } from '../support/local-stack.ts';
import { createTenant } from '../ingestion-routes/support.ts';
import { createIncident, INCIDENTS } from '../support/incidents.ts';
import { playbookApi } from '../playbooks/helpers.ts';
import { ASSISTANT, analyse, deployHelloWorld, mapServices, postSignal } from './support.ts';

/** What leadership and stakeholders must never be shown: each an engineering mark, named for the failure message. */
const ENGINEERING_MARKS: Record<string, RegExp> = {
  'a severity tag': /\[(CRITICAL|HIGH|MEDIUM|LOW)\]/,
  'a listed engineering line': /^- \[/m,
  'a raw ISO timestamp': /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/,
  'a ULID': /\b[0-9A-HJKMNP-TV-Z]{26}\b/,
  'an incident id': /\bINC-\d{8}-\d+/,
  'a commit hash': /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/,
  'an evidence id': /\b(deploy|run|signal|incident|pattern):\S/,
  'a change id': /\bcodehost_[abc]-\d+/,
};

const expectPlain = (text: string) => {
  for (const [what, mark] of Object.entries(ENGINEERING_MARKS)) {
    expect(mark.test(text), `${what} in:\n${text}`).toBe(false);
  }
};

describe('leadership reports and stakeholder messages are prose, whatever the incident', () => {
  let client: TestClient;

  beforeAll(async () => {
    client = await startTestStack(':memory:', GENEROUS_RATE_LIMITS, { workers: true });
  });
  afterAll(() => client.stack.stop());

  const leadershipOf = async (as: SignedIn, incidentId: string) => {
    const { analysisId } = await analyse(client, as, incidentId);
    const reply = await client.request('POST', `${ASSISTANT}/report`, { analysisId, audience: 'LEADERSHIP' }, as.auth);
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data.content as string;
  };
  const stakeholderOf = async (as: SignedIn, incidentId: string) => {
    const reply = await client.request('GET', `${INCIDENTS}/resolve/ai/stakeholder/${incidentId}`, undefined, as.auth);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data.message as string;
  };
  /** The incident correlation opened from the signal. */
  const openedFrom = async (as: SignedIn, signalId: string): Promise<string> => {
    await client.stack.workers?.idle();
    const reply = await client.request('GET', `/api/v1/signals/${signalId}`, undefined, as.auth);
    expect(reply.body.data.incidentId, 'correlation opened an incident').toMatch(/^INC-/);
    return reply.body.data.incidentId as string;
  };

  it('opened from a signal after a deploy: no signal lines, ids, hashes or timestamps', async () => {
    const { admin, keyHeaders } = await createTenant(client, 'Signal Shape Co');
    await mapServices(client, admin, ['checkout', 'hello-world'], [['checkout', 'hello-world']]);
    await deployHelloWorld(client, keyHeaders, 4);
    const incidentId = await openedFrom(
      admin,
      await postSignal(client, admin, { name: 'CheckoutHighErrorRate', serviceId: 'hello-world' }),
    );
    const leadership = await leadershipOf(admin, incidentId);
    expectPlain(leadership);
    expect(leadership).toMatch(/software update released to the hello-world service shortly before/);
    expect(leadership).toMatch(/Customers: no customer-facing effect has been recorded so far/);
    const stakeholder = await stakeholderOf(admin, incidentId);
    expectPlain(stakeholder);
    expect(stakeholder).toMatch(/^Update on "CheckoutHighErrorRate on hello-world": the problem is being worked on/);
  });

  it('manual, with nothing else known: the description as written, an open problem as of a time in the zone', async () => {
    const { admin } = await createTenant(client, 'Manual Shape Co');
    const ims = await client.request(
      'POST',
      '/api/v1/ims/setup',
      { alertEmail: 'ops@example.com', timezone: 'Asia/Kolkata' },
      admin.auth,
    );
    expect(ims.status, ims.text).toBe(201);
    const incidentId = (
      await createIncident(client, admin.auth, {
        summary: 'Payments page slow',
        serviceArea: 'payments',
        description: 'Some customers wait a minute to pay.',
      })
    ).id as string;
    const leadership = await leadershipOf(admin, incidentId);
    expectPlain(leadership);
    expect(leadership).toMatch(/^Summary for leadership: "Payments page slow"/);
    expect(leadership).toMatch(/Customers: Some customers wait a minute to pay\./);
    const { asOf } = (await client.request('GET', `${ASSISTANT}/analysis/${incidentId}`, undefined, admin.auth)).body
      .data;
    // Kolkata is 5 h 30 min ahead of UTC all year.
    const local = new Date(Date.parse(asOf) + 330 * 60_000).toISOString().slice(11, 16);
    expect(leadership).toContain(` as of ${local} on `);
    expect(leadership).toMatch(/ as of \d{2}:\d{2} on \d{1,2} [A-Z][a-z]+ \d{4} \(Asia\/Kolkata\)/);
    expectPlain(await stakeholderOf(admin, incidentId));
  });

  it('with a playbook run and its notes on the incident', async () => {
    const { admin } = await createTenant(client, 'Playbook Shape Co');
    const playbooks = playbookApi(client);
    const incidentId = (await createIncident(client, admin.auth, { serviceArea: 'checkout' })).id as string;
    await postSignal(client, admin, { name: 'checkout latency high', serviceId: 'checkout', severity: 'MEDIUM' });
    const playbook = await playbooks.createPublished(admin);
    const execution = await playbooks.execute(admin, playbook.id, { incidentId });
    await playbooks.complete(admin, execution.executionId, 0, {
      note: 'Error rate 12% at 2026-11-27T06:01:00Z, see 9f3c2ab',
    });
    const leadership = await leadershipOf(admin, incidentId);
    expectPlain(leadership);
    expectPlain(await stakeholderOf(admin, incidentId));
  });

  it('resolved after its analysis: the report is told as of the analysis, with the time it took', async () => {
    const { admin } = await createTenant(client, 'Resolved Shape Co');
    const incidentId = await openedFrom(
      admin,
      await postSignal(client, admin, { name: 'Orders queue stuck', serviceId: 'orders' }),
    );
    const analysis = await analyse(client, admin, incidentId);
    expect(analysis.impactAssessment).toMatch(/ as of \d{2}:\d{2} on /);
    expect(analysis.impactAssessment).not.toMatch(/so far/);
    expect(Date.parse(analysis.asOf)).toBeLessThanOrEqual(Date.parse(analysis.completedAt));
    const resolved = await client.request('POST', `${INCIDENTS}/resolve/${incidentId}`, {}, admin.auth);
    expect(resolved.status, resolved.text).toBe(200);

    const reply = await client.request(
      'POST',
      `${ASSISTANT}/report`,
      { analysisId: analysis.analysisId, audience: 'LEADERSHIP' },
      admin.auth,
    );
    const leadership = reply.body.data.content as string;
    expectPlain(leadership);
    expect(leadership).toMatch(
      /rests on what was known at .*, while the problem was still going on; it was resolved at /,
    );
    expect(leadership).toMatch(/Time to recover: Service was restored after /);
    expect(leadership).not.toMatch(/Not recovered yet/);
    const stakeholder = await stakeholderOf(admin, incidentId);
    expectPlain(stakeholder);
    expect(stakeholder).toMatch(/the problem has been resolved/);
    expect(stakeholder).toMatch(/, lasting [^.]* in all\./);
  });
});
