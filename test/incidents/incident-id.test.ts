import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeaders, joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { at, setDayCounter } from './support.ts';
import { INCIDENTS, createIncident } from '../support/incidents.ts';

const NOON = '2025-03-14T12:00:00.000Z';
const DAY = '20250314';

const ids = (reply: { body: { data: { id: string }[] } }): string[] => reply.body.data.map((incident) => incident.id);

describe('incident ids: previews reserve nothing, and a day never runs out', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await startTestStack();
  });
  afterAll(() => client.stack.stop());

  const workspaceOf = (admin: SignedIn): string => admin.user.businessId ?? '';
  const preview = async (auth: Record<string, string>): Promise<string> => {
    const reply = await client.request('GET', `${INCIDENTS}/generate-id`, undefined, auth);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.message).toBe('Next incident id (a preview, not reserved)');
    return reply.body.data.id as string;
  };

  it('lets a VIEWER and a read-only key call /generate-id any number of times without taking a number', async () => {
    const admin = await signUpBusiness(client);
    const viewer = await joinAs(client, admin, 'VIEWER');
    const readOnlyKey = await apiKeyHeaders(client, admin, ['incidents:read']);
    await at(client, NOON, async () => {
      const previews = [];
      for (let call = 0; call < 30; call += 1) {
        previews.push(await preview(viewer.auth), await preview(readOnlyKey));
      }
      expect(new Set(previews)).toEqual(new Set([`INC-${DAY}-0001`]));

      const first = await createIncident(client, admin.auth);
      expect(first.id).toBe(`INC-${DAY}-0001`);
      expect(await preview(viewer.auth)).toBe(`INC-${DAY}-0002`);
      expect((await createIncident(client, admin.auth)).id).toBe(`INC-${DAY}-0002`);
    });
  });

  it('numbers the incident after 9,999 in a day 10000 and keeps counting', async () => {
    const admin = await signUpBusiness(client);
    await setDayCounter(client, workspaceOf(admin), DAY, 9999);
    await at(client, NOON, async () => {
      expect(await preview(admin.auth)).toBe(`INC-${DAY}-10000`);
      const tenThousandth = await createIncident(client, admin.auth);
      expect(tenThousandth.id).toBe(`INC-${DAY}-10000`);
      expect((await createIncident(client, admin.auth)).id).toBe(`INC-${DAY}-10001`);
      expect(await preview(admin.auth)).toBe(`INC-${DAY}-10002`);

      const read = await client.request('GET', `${INCIDENTS}/${tenThousandth.id}`, undefined, admin.auth);
      expect(read.status, read.text).toBe(200);
      expect(read.body.data).toMatchObject({ id: tenThousandth.id, ticketId: tenThousandth.id });
      const updated = await client.request(
        'PUT',
        `${INCIDENTS}/${tenThousandth.id}`,
        { status: 'ACKNOWLEDGED' },
        admin.auth,
      );
      expect(updated.status, updated.text).toBe(200);
      const comment = await client.request(
        'POST',
        `${INCIDENTS}/comment`,
        { ticketId: tenThousandth.id, content: 'on it' },
        admin.auth,
      );
      expect(comment.status, comment.text).toBe(201);
      expect(
        (await client.request('POST', `${INCIDENTS}/resolve/${tenThousandth.id}`, undefined, admin.auth)).status,
      ).toBe(200);
    });
  });

  it('still refuses values that are not incident ids with a 404', async () => {
    const admin = await signUpBusiness(client);
    for (const id of [`INC-${DAY}-01000`, `INC-${DAY}-123`, `INC-${DAY}-12345678901234567`, `INC-${DAY}-E10000`]) {
      const reply = await client.request('GET', `${INCIDENTS}/${id}`, undefined, admin.auth);
      expect(reply.status, id).toBe(404);
    }
  });

  it('lists newest first across the 9999 -> 10000 boundary, by status, priority and date too', async () => {
    const admin = await signUpBusiness(client);
    await setDayCounter(client, workspaceOf(admin), DAY, 9997);
    const created = await at(client, NOON, async () => {
      const made: string[] = [];
      for (let index = 0; index < 4; index += 1)
        made.push((await createIncident(client, admin.auth, { priority: 'CRITICAL' })).id);
      return made;
    });
    const nextDay = await at(client, '2025-03-15T00:00:01.000Z', () =>
      createIncident(client, admin.auth, { priority: 'CRITICAL' }),
    );
    expect(created).toEqual([`INC-${DAY}-9998`, `INC-${DAY}-9999`, `INC-${DAY}-10000`, `INC-${DAY}-10001`]);
    expect(nextDay.id).toBe('INC-20250315-0001');
    const newestFirst = [nextDay.id, ...[...created].reverse()];
    const list = (query: string) => client.request('GET', `${INCIDENTS}${query}`, undefined, admin.auth);

    expect(ids(await list(''))).toEqual(newestFirst);
    expect(ids(await list('?status=OPEN'))).toEqual(newestFirst);
    expect(ids(await list('?priority=CRITICAL'))).toEqual(newestFirst);
    const thatDay = await list('?from=2025-03-14&to=2025-03-14');
    expect(ids(thatDay)).toEqual(newestFirst.slice(1));
    expect(thatDay.body.meta.total).toBe(4);
    expect(ids(await list('?limit=2&page=2'))).toEqual(newestFirst.slice(2, 4));
  });
});
