import { beforeAll, describe, expect, it } from 'vitest';
import { loadFixture } from '../ingestion/support.ts';
import { createTenant, expectAccepted, postRaw, type Tenant } from '../ingestion-routes/support.ts';
import { joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import {
  INCIDENTS,
  RULES,
  SIGNALS,
  type Auth,
  createRule,
  getIncident,
  getSignal,
  historyOf,
  postSignal,
  unique,
  useCorrelatingStack,
} from './support.ts';

const firing = loadFixture('metrics-alerts', 'captured.json');
const resolved = loadFixture('metrics-alerts', 'captured-resolved.json');

describe('resolved signals and their incidents', () => {
  const stack = useCorrelatingStack();

  const settle = (): Promise<void> => stack.worker.idle();
  const deliver = async (tenant: Tenant, fixture: typeof firing) =>
    expectAccepted(
      await postRaw(stack.client, 'metrics-alerts', fixture.raw, fixture.headers, { query: `?apiKey=${tenant.key}` }),
    );
  const messagesOf = async (auth: Auth, incidentId: string): Promise<Record<string, any>[]> => {
    const reply = await stack.client.request('GET', `${INCIDENTS}/message/${incidentId}`, undefined, auth);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data;
  };
  const systemNotes = async (auth: Auth, incidentId: string) =>
    (await messagesOf(auth, incidentId)).filter(
      (message) => message.kind === 'SYSTEM' && /resolved$/.test(message.text),
    );

  it("resolves the Alertmanager signal with the resolved payload and says so once in its incident's thread", async () => {
    const tenant = await createTenant(stack.client, unique('Alerting Co'));
    const fired = await deliver(tenant, firing);
    await settle();
    const open = await getSignal(stack.client, tenant.keyHeaders, fired.signalId);
    expect(open.status).toBe('OPEN');
    expect(open.incidentId).toMatch(/^INC-/);

    const ended = await deliver(tenant, resolved);
    expect(ended.signals[0]).toMatchObject({ signalId: fired.signalId, resolved: true });
    expect((await getSignal(stack.client, tenant.keyHeaders, fired.signalId)).status).toBe('RESOLVED');
    await settle();
    expect(await systemNotes(tenant.keyHeaders, open.incidentId)).toEqual([
      expect.objectContaining({ text: 'Its signal has resolved', ticketId: open.incidentId }),
    ]);
    // autoResolve is off by default: the incident stays open for a person to resolve.
    expect((await getIncident(stack.client, tenant.keyHeaders, open.incidentId)).status).toBe('OPEN');

    // The same resolve delivered again reaches the stack.worker again and adds nothing.
    await deliver(tenant, resolved);
    await settle();
    expect(await systemNotes(tenant.keyHeaders, open.incidentId)).toHaveLength(1);
  });

  describe('a rule with autoResolve', () => {
    let admin: SignedIn;
    let ruleId: string;
    beforeAll(async () => {
      admin = await signUpBusiness(stack.client, { businessName: unique('Auto Co') });
      const rule = await createRule(stack.client, admin.auth, {
        name: 'Two payment errors',
        order: 1,
        match: { serviceIds: ['payments'] },
        groupBy: ['serviceId'],
        minSignals: 2,
        windowMinutes: 10,
        action: { priority: 'HIGH' },
        autoResolve: true,
      });
      expect(rule.autoResolve).toBe(true);
      ruleId = rule.id;
    });

    it('resolves the incident it opened once every linked signal has resolved, as system', async () => {
      const first = await postSignal(stack.client, admin.auth, { severity: 'MEDIUM', serviceId: 'payments' });
      const second = await postSignal(stack.client, admin.auth, { severity: 'MEDIUM', serviceId: 'payments' });
      await settle();
      const { incidentId } = await getSignal(stack.client, admin.auth, first);
      expect(incidentId).toMatch(/^INC-/);

      expect((await stack.client.request('PATCH', `${SIGNALS}/${first}/resolve`, {}, admin.auth)).status).toBe(200);
      await settle();
      expect((await getIncident(stack.client, admin.auth, incidentId)).status).toBe('OPEN');
      expect(await systemNotes(admin.auth, incidentId)).toEqual([]);

      expect((await stack.client.request('PATCH', `${SIGNALS}/${second}/resolve`, {}, admin.auth)).status).toBe(200);
      await settle();
      const incident = await getIncident(stack.client, admin.auth, incidentId);
      expect(incident).toMatchObject({ status: 'RESOLVED', resolvedAt: expect.any(String) });
      expect(await systemNotes(admin.auth, incidentId)).toEqual([
        expect.objectContaining({ text: 'All 2 of its signals have resolved' }),
      ]);
      const messages = await messagesOf(admin.auth, incidentId);
      expect(messages.filter((message) => message.kind === 'RESOLUTION')).toEqual([
        expect.objectContaining({ text: 'Incident resolved by system', actor: 'system' }),
      ]);
      const history = await historyOf(stack.client, admin.auth, incidentId);
      expect(history.filter((event) => event.event === 'RESOLVED')).toEqual([
        expect.objectContaining({ actor: 'system' }),
      ]);
    });

    it('takes autoResolve on update, refuses a non-boolean, and lets only an ADMIN change it', async () => {
      const bad = await stack.client.request('PUT', `${RULES}/${ruleId}`, { autoResolve: 'yes' }, admin.auth);
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual([expect.stringMatching(/^autoResolve: /)]);
      const badCreate = await stack.client.request(
        'POST',
        RULES,
        { name: 'x', action: { priority: 'LOW' }, autoResolve: 1 },
        admin.auth,
      );
      expect(badCreate.status).toBe(400);
      expect(badCreate.body.errors).toEqual([expect.stringMatching(/^autoResolve: /)]);

      const engineer = await joinAs(stack.client, admin, 'ENGINEER');
      const refused = await stack.client.request('PUT', `${RULES}/${ruleId}`, { autoResolve: false }, engineer.auth);
      expect(refused.status).toBe(403);
      const viewer = await joinAs(stack.client, admin, 'VIEWER');
      const read = await stack.client.request('GET', `${RULES}/${ruleId}`, undefined, viewer.auth);
      expect(read.body.data.autoResolve).toBe(true);

      const off = await stack.client.request('PUT', `${RULES}/${ruleId}`, { autoResolve: false }, admin.auth);
      expect(off.status, off.text).toBe(200);
      expect(off.body.data.autoResolve).toBe(false);
      const other = await signUpBusiness(stack.client, { businessName: unique('Other Co') });
      expect((await stack.client.request('PUT', `${RULES}/${ruleId}`, { autoResolve: true }, other.auth)).status).toBe(
        404,
      );
    });

    it('defaults autoResolve to false, the built-in rules included', async () => {
      const fresh = await signUpBusiness(stack.client, { businessName: unique('Default Co') });
      const rules = await stack.client.request('GET', RULES, undefined, fresh.auth);
      expect(rules.body.data.map((rule: { autoResolve: boolean }) => rule.autoResolve)).toEqual([false, false]);
      const rule = await createRule(stack.client, fresh.auth, { name: 'plain', action: { priority: 'LOW' } });
      expect(rule.autoResolve).toBe(false);
    });
  });
});
