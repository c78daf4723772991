import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFolder } from '#infra/ops/import.ts';
import { joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { acceptInvitation, apiAs, exportCopy, withoutPolicyRoutes, withPolicyRoutes } from './support.ts';

const SCHEDULES = '/api/v1/schedules';

describe('npm run import: PagerDuty and Opsgenie exports through the workspace API', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await startTestStack();
  });
  afterAll(() => client.stack.stop());

  const schedulesOf = async (admin: SignedIn): Promise<Record<string, any>[]> => {
    const reply = await client.request('GET', SCHEDULES, undefined, admin.auth);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data;
  };
  const invitationsTo = async (email: string): Promise<number> => {
    const mail = await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`);
    return (mail.body.data as { token?: string }[]).filter((message) => message.token).length;
  };

  it('plans an Opsgenie export, applies it, and applies it again to the same counts', async () => {
    const admin = await signUpBusiness(client, { businessName: 'Genie Leavers' });
    await joinAs(client, admin, 'ENGINEER', 'bob.lindqvist@example.com');
    await joinAs(client, admin, 'ENGINEER', 'carol.nakamura@example.com');
    const from = exportCopy('opsgenie');
    const api = withoutPolicyRoutes(apiAs(client, admin.auth));

    const plan = await importFolder({ tool: 'opsgenie', from, apply: false }, api);
    const text = plan.lines.join('\n');
    expect(text).toContain('would create "Payments On Call" (1 layer, 0 overrides)');
    expect(text).toContain(
      'would create "Checkout Primary" (2 layers, 1 override; invited, on call once they accept: alice.moreau@example.com)',
    );
    expect(text).toContain('would invite alice.moreau@example.com as ADMIN');
    expect(text).toMatch(
      /NOT IMPORTED: this service has no \/api\/v1\/escalation-policies routes.*"Checkout_escalation"/,
    );
    expect(text).toContain('rotation Escalation fallback: a participant of type escalation has no equivalent');
    expect(text).toContain('rotation Holiday cover 2025: ends at 2026-01-04T00:00:00Z');
    const counts = { membersMatched: 2, invited: 2, services: 2, schedules: 2, policies: 0, waiting: 0 };
    expect(plan.created).toEqual(counts);
    expect(await schedulesOf(admin)).toEqual([]);
    expect(await invitationsTo('alice.moreau@example.com')).toBe(0);

    expect((await importFolder({ tool: 'opsgenie', from, apply: true }, api)).created).toEqual(counts);
    const payments = (await schedulesOf(admin)).find((s) => s.name === 'Payments On Call');
    expect(payments).toMatchObject({ name: 'Payments On Call', timezone: 'America/New_York' });
    expect(payments?.layers).toEqual([
      expect.objectContaining({
        rotationType: 'custom',
        rotationHours: 12,
        handoffTime: '07:00',
        restrictions: { daysOfWeek: [1, 2, 3, 4, 5, 6, 7], startTime: '07:00', endTime: '19:00' },
      }),
    ]);
    const services = await client.request('GET', '/api/v1/service-map', undefined, admin.auth);
    expect(services.body.data.services).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Checkout API', team: 'checkout-team' })]),
    );
    expect(await invitationsTo('alice.moreau@example.com')).toBe(1);

    await acceptInvitation(client, 'alice.moreau@example.com');
    const joined = await importFolder({ tool: 'opsgenie', from, apply: true }, api);
    expect(joined.created).toEqual({
      membersMatched: 3,
      invited: 0,
      services: 0,
      schedules: 0,
      policies: 0,
      waiting: 0,
    });
    const byName: Record<string, any> = Object.fromEntries((await schedulesOf(admin)).map((s) => [s.name, s]));
    const checkout = byName['Checkout Primary'];
    expect(checkout.layers).toEqual([
      expect.objectContaining({ rotationType: 'weekly', handoffTime: '09:00', members: expect.any(Array) }),
      expect.objectContaining({
        rotationType: 'daily',
        handoffTime: '18:00',
        restrictions: { daysOfWeek: [1, 2, 3], startTime: '18:00', endTime: '23:00' },
      }),
    ]);
    expect(checkout.layers[0].members).toHaveLength(2);
    const overrides = await client.request('GET', `${SCHEDULES}/${checkout.id}/overrides`, undefined, admin.auth);
    expect(overrides.body.data).toEqual([expect.objectContaining({ start: '2026-12-24T08:00:00.000Z' })]);

    const again = await importFolder({ tool: 'opsgenie', from, apply: true }, api);
    expect(again.created).toEqual({
      membersMatched: 3,
      invited: 0,
      services: 0,
      schedules: 0,
      policies: 0,
      waiting: 0,
    });
    expect(again.lines.join('\n')).toContain('"Checkout Primary" exists');
    expect(await schedulesOf(admin)).toHaveLength(2);
    expect(await invitationsTo('dave.okafor@example.com')).toBe(1);
  });

  it('imports a PagerDuty export, policies in the shape of the escalation-policy routes', async () => {
    const admin = await signUpBusiness(client, { businessName: 'Pager Leavers' });
    const kenji = await joinAs(client, admin, 'ENGINEER', 'kenji.watanabe@example.com');
    const priya = await joinAs(client, admin, 'ENGINEER', 'priya.raman@example.com');
    const earline = await joinAs(client, admin, 'ADMIN', 'earline.greenholt@example.com');
    const { api, posted } = withPolicyRoutes(apiAs(client, admin.auth));
    const from = exportCopy('pagerduty');

    const applied = await importFolder({ tool: 'pagerduty', from, apply: true }, api);
    const text = applied.lines.join('\n');
    expect(applied.created).toEqual({
      membersMatched: 3,
      invited: 1,
      services: 2,
      schedules: 2,
      policies: 1,
      waiting: 0,
    });
    expect(text).toContain('invited sam.observer@example.com as VIEWER');
    expect(text).toContain('layer Weekend split: restrictions whose windows differ by day');
    expect(text).toContain('layer Last year: ended at 2025-12-31T20:00:00Z');
    expect(text).toContain('target user_reference A Former Employee is not in the export');
    const byName: Record<string, any> = Object.fromEntries((await schedulesOf(admin)).map((s) => [s.name, s]));
    const daily = byName['Daily Engineering Rotation'];
    expect(daily.layers).toEqual([
      expect.objectContaining({
        rotationType: 'daily',
        handoffTime: '09:00',
        members: [earline.user.id, kenji.user.id],
      }),
      expect.objectContaining({
        rotationType: 'weekly',
        members: [priya.user.id],
        restrictions: { daysOfWeek: [1, 2, 3, 4, 5], startTime: '09:00', endTime: '17:00' },
      }),
    ]);
    expect(byName['Billing Nights'].layers).toEqual([
      expect.objectContaining({
        rotationType: 'custom',
        rotationHours: 12,
        members: [priya.user.id, kenji.user.id],
        restrictions: { daysOfWeek: [1, 2, 3, 4, 5, 6, 7], startTime: '20:00', endTime: '08:00' },
      }),
    ]);
    expect(posted).toEqual([
      {
        name: 'Engineering Escalation',
        repeat: 2,
        levels: [
          { delayMinutes: 15, targets: [{ type: 'schedule', id: daily.id }] },
          { delayMinutes: 30, targets: [{ type: 'member', id: earline.user.id }] },
        ],
      },
    ]);

    const again = await importFolder({ tool: 'pagerduty', from, apply: true }, api);
    expect(again.created).toEqual({
      membersMatched: 3,
      invited: 0,
      services: 0,
      schedules: 0,
      policies: 0,
      waiting: 0,
    });
    expect(posted).toHaveLength(1);
  });

  it('stops on an export file that is not of the API shape, creating nothing', async () => {
    const admin = await signUpBusiness(client, { businessName: 'Broken Export' });
    const api = apiAs(client, admin.auth);
    await expect(
      importFolder({ tool: 'pagerduty', from: `${exportCopy('opsgenie')}`, apply: true }, api),
    ).rejects.toThrow(/users\.json: not the shape the API returns/);
    expect(await schedulesOf(admin)).toEqual([]);
  });
});
