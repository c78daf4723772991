import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFolder } from '#infra/ops/import.ts';
import { signUpBusiness } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { acceptInvitation, apiAs, exportCopy } from './support.ts';

const OPSGENIE_PEOPLE = [
  'alice.moreau@example.com',
  'bob.lindqvist@example.com',
  'carol.nakamura@example.com',
  'dave.okafor@example.com',
];

/** A plan's lines as `--apply` prints what it did: the summary is the same list, in the past tense. */
const asApplied = (lines: string[]): string[] =>
  lines.map((line) =>
    line
      .replace('(plan)', '(apply)')
      .replace(/^Plan:/, 'Done:')
      .replace('would invite', 'invited')
      .replace('would create', 'created'),
  );

describe('npm run import on a brand-new workspace: everyone invited, everything created on the first run', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await startTestStack();
  });
  afterAll(() => client.stack.stop());

  const listOf = async (auth: Record<string, string>, path: string): Promise<Record<string, any>[]> => {
    const reply = await client.request('GET', path, undefined, auth);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data;
  };

  it('plans the Opsgenie schedules and policies as created, applies exactly that, and plans nothing after', async () => {
    const admin = await signUpBusiness(client, { businessName: 'Fresh From Opsgenie' });
    const api = apiAs(client, admin.auth);
    const from = exportCopy('opsgenie');

    const plan = await importFolder({ tool: 'opsgenie', from, apply: false }, api);
    const text = plan.lines.join('\n');
    const counts = { membersMatched: 0, invited: 4, services: 2, schedules: 2, policies: 2, waiting: 0 };
    expect(plan.created).toEqual(counts);
    for (const email of OPSGENIE_PEOPLE) expect(text).toContain(`would invite ${email}`);
    expect(text).toContain('would create "Payments On Call" (1 layer, 0 overrides; invited, on call once they accept');
    expect(text).toContain('would create "Checkout Primary" (2 layers, 1 override; invited, on call once they accept');
    expect(text).toMatch(/would create "Checkout_escalation" \(\d levels?, repeat \d/);
    expect(text).not.toContain('waits for');
    // In the order --apply acts: people first, then what names them.
    expect(text.indexOf('would invite')).toBeLessThan(text.indexOf('would create "Payments On Call"'));
    expect(text.indexOf('would create "Checkout Primary"')).toBeLessThan(text.indexOf('would create "Checkout_'));
    expect(await listOf(admin.auth, '/api/v1/schedules')).toEqual([]);

    const applied = await importFolder({ tool: 'opsgenie', from, apply: true }, api);
    expect(applied.created).toEqual(counts);
    expect(applied.lines).toEqual(asApplied(plan.lines));
    const schedules = await listOf(admin.auth, '/api/v1/schedules');
    expect(schedules.map((s) => s.name).sort()).toEqual(['Checkout Primary', 'Payments On Call']);
    const policies = await listOf(admin.auth, '/api/v1/escalation-policies');
    expect(policies).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Checkout_escalation' })]));

    const after = await importFolder({ tool: 'opsgenie', from, apply: false }, api);
    expect(after.created).toEqual({ ...counts, invited: 0, services: 0, schedules: 0, policies: 0 });
    expect(after.lines.join('\n')).not.toMatch(/would (invite|create)/);

    const again = await importFolder({ tool: 'opsgenie', from, apply: true }, api);
    expect(again.created).toEqual(after.created);
    expect(await listOf(admin.auth, '/api/v1/schedules')).toHaveLength(2);
    expect(await listOf(admin.auth, '/api/v1/escalation-policies')).toHaveLength(2);
  });

  it('hands the turns an invitation held to the member who accepts it', async () => {
    const admin = await signUpBusiness(client, { businessName: 'Handover From Opsgenie' });
    const api = apiAs(client, admin.auth);
    const from = exportCopy('opsgenie');
    await importFolder({ tool: 'opsgenie', from, apply: true }, api);
    const before = await listOf(admin.auth, '/api/v1/schedules');
    const checkout = before.find((s) => s.name === 'Checkout Primary') as Record<string, any>;
    const overridesPath = `/api/v1/schedules/${checkout.id}/overrides`;
    const [override] = await listOf(admin.auth, overridesPath);
    const invitedAs = override?.userId;

    await acceptInvitation(client, 'bob.lindqvist@example.com', 'Handover From Opsgenie');
    const members = await listOf(admin.auth, '/api/v1/business/get_members');
    const bob = members.find((m) => m.email === 'bob.lindqvist@example.com')?.id;
    expect(bob).toEqual(expect.any(String));
    expect(await listOf(admin.auth, overridesPath)).toEqual([expect.objectContaining({ userId: bob })]);
    const held = JSON.stringify([
      await listOf(admin.auth, '/api/v1/schedules'),
      await listOf(admin.auth, '/api/v1/escalation-policies'),
    ]);
    expect(held).not.toContain(invitedAs);
    expect(held).toContain(bob);

    const rerun = await importFolder({ tool: 'opsgenie', from, apply: true }, api);
    expect(rerun.created).toEqual({
      membersMatched: 1,
      invited: 0,
      services: 0,
      schedules: 0,
      policies: 0,
      waiting: 0,
    });
  });
});
