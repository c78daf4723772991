import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeaders, joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

const MAP = '/api/v1/service-map';
const UNKNOWN_ID = '01J0000000000000000000000Z';

describe('service map', () => {
  let client: TestClient;
  let admin: SignedIn;
  let other: SignedIn;
  let viewer: SignedIn;

  const create = async (body: Record<string, unknown>, as: SignedIn = admin) => {
    const reply = await client.request('POST', MAP, body, as.auth);
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data as { id: string; name: string };
  };
  const depend = async (sourceId: string, targetId: string, as: SignedIn = admin) => {
    const reply = await client.request('POST', `${MAP}/dependencies`, { sourceId, targetId }, as.auth);
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data as { id: string };
  };
  const fieldsOf = (errors: string[]) => errors.map((error) => error.split(':')[0]).sort();
  let counter = 0;
  const unique = (label: string) => `${label}-${(counter += 1)}`;

  beforeAll(async () => {
    client = await startTestStack();
    [admin, other] = await Promise.all([signUpBusiness(client), signUpBusiness(client, { businessName: 'Other Co' })]);
    viewer = await joinAs(client, admin, 'VIEWER');
  });
  afterAll(() => client.stack.stop());

  describe('services', () => {
    it('creates a service with its fields, unset ones as null, and reads it back', async () => {
      const reply = await client.request(
        'POST',
        MAP,
        { name: ' Checkout ', description: 'Takes payments', team: 'payments-core', repository: 'acme/checkout' },
        admin.auth,
      );
      expect(reply.status).toBe(201);
      expect(reply.body.message).toBe('Service created');
      const service = reply.body.data;
      expect(service).toEqual({
        id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
        name: 'Checkout',
        description: 'Takes payments',
        team: 'payments-core',
        repository: 'acme/checkout',
        escalationPolicyId: null,
        createdAt: expect.any(String),
        updatedAt: service.createdAt,
      });
      const fetched = await client.request('GET', `${MAP}/${service.id}`, undefined, admin.auth);
      expect(fetched.body.data).toEqual(service);
      const bare = await create({ name: unique('bare'), description: '' });
      expect(bare).toMatchObject({ description: null, team: null, repository: null, escalationPolicyId: null });
    });

    it('refuses a name already taken, whatever its case and blanks, in the same workspace only', async () => {
      const name = unique('Search');
      await create({ name });
      const again = await client.request('POST', MAP, { name: `  ${name.toUpperCase()} ` }, admin.auth);
      expect(again.status).toBe(409);
      expect(again.body.errors).toEqual([`name: ${name.toUpperCase()} is already the name of a service`]);
      await create({ name }, other);
    });

    it('lets only one of two simultaneous creates of a name succeed', async () => {
      const name = unique('racing');
      const replies = await Promise.all([1, 2].map(() => client.request('POST', MAP, { name }, admin.auth)));
      expect(replies.map((reply) => reply.status).sort()).toEqual([201, 409]);
    });

    it('answers one message per bad field', async () => {
      const reply = await client.request(
        'POST',
        MAP,
        { name: '  ', team: 'Payments Team', repository: 'not a repo', description: 5 },
        admin.auth,
      );
      expect(reply.status).toBe(400);
      expect(fieldsOf(reply.body.errors)).toEqual(['description', 'name', 'repository', 'team']);
    });

    it('lists the services by name', async () => {
      const reply = await client.request('GET', MAP, undefined, other.auth);
      expect(reply.status).toBe(200);
      const names = reply.body.data.services.map((service: { name: string }) => service.name);
      expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));
      expect(names.length).toBeGreaterThan(0);
    });

    it("answers 404 for an unknown id, a malformed one and another workspace's", async () => {
      const theirs = await create({ name: unique('theirs') }, other);
      for (const id of [UNKNOWN_ID, 'nonsense', theirs.id]) {
        expect((await client.request('GET', `${MAP}/${id}`, undefined, admin.auth)).status).toBe(404);
        expect((await client.request('PATCH', `${MAP}/${id}`, { team: 'x' }, admin.auth)).status).toBe(404);
        expect((await client.request('DELETE', `${MAP}/${id}`, undefined, admin.auth)).status).toBe(404);
        expect((await client.request('GET', `${MAP}/${id}/downstream-impact`, undefined, admin.auth)).status).toBe(404);
      }
    });
  });

  describe('PATCH', () => {
    it('changes only the given fields, clears with null, and a rename frees the old name', async () => {
      const oldName = unique('billing');
      const service = await create({ name: oldName, description: 'Invoices', team: 'finance' });
      const reply = await client.request(
        'PATCH',
        `${MAP}/${service.id}`,
        { name: unique('invoicing'), description: null },
        admin.auth,
      );
      expect(reply.status).toBe(200);
      expect(reply.body.data).toMatchObject({ id: service.id, description: null, team: 'finance' });
      expect(reply.body.data.updatedAt >= reply.body.data.createdAt).toBe(true);
      await create({ name: oldName });
      const taken = await client.request('PATCH', `${MAP}/${service.id}`, { name: oldName }, admin.auth);
      expect(taken.status).toBe(409);
      const unchanged = await client.request('GET', `${MAP}/${service.id}`, undefined, admin.auth);
      expect(unchanged.body.data).toEqual(reply.body.data);
    });

    it('may change only the case of its own name', async () => {
      const service = await create({ name: unique('ledger') });
      const reply = await client.request(
        'PATCH',
        `${MAP}/${service.id}`,
        { name: service.name.toUpperCase() },
        admin.auth,
      );
      expect(reply.status).toBe(200);
      expect(reply.body.data.name).toBe(service.name.toUpperCase());
    });

    it('needs at least one field and checks each', async () => {
      const service = await create({ name: unique('empty-patch') });
      const none = await client.request('PATCH', `${MAP}/${service.id}`, {}, admin.auth);
      expect(none.status).toBe(400);
      const bad = await client.request('PATCH', `${MAP}/${service.id}`, { name: '', team: 'UPPER' }, admin.auth);
      expect(fieldsOf(bad.body.errors)).toEqual(['name', 'team']);
    });
  });

  describe('dependencies, topology and downstream impact', () => {
    it('refuses a self edge, unknown or foreign ends, and a duplicate edge', async () => {
      const [api, db] = [await create({ name: unique('api') }), await create({ name: unique('db') })];
      const theirs = await create({ name: unique('foreign') }, other);
      const self = await client.request(
        'POST',
        `${MAP}/dependencies`,
        { sourceId: api.id, targetId: api.id },
        admin.auth,
      );
      expect(self.status).toBe(400);
      expect(self.body.errors).toEqual(['targetId: a service cannot depend on itself']);
      const unknown = await client.request(
        'POST',
        `${MAP}/dependencies`,
        { sourceId: theirs.id, targetId: 'nope' },
        admin.auth,
      );
      expect(unknown.status).toBe(404);
      expect(unknown.body.errors).toEqual([
        `sourceId: no service ${theirs.id} in this workspace`,
        'targetId: no service nope in this workspace',
      ]);
      const missing = await client.request('POST', `${MAP}/dependencies`, {}, admin.auth);
      expect(fieldsOf(missing.body.errors)).toEqual(['sourceId', 'targetId']);
      const edge = await depend(api.id, db.id);
      expect(edge).toMatchObject({ sourceId: api.id, targetId: db.id });
      const twice = await client.request(
        'POST',
        `${MAP}/dependencies`,
        { sourceId: api.id, targetId: db.id },
        admin.auth,
      );
      expect(twice.status).toBe(409);
      await depend(db.id, api.id);
    });

    it('answers the topology with edges named from upstream to downstream', async () => {
      const owner = await signUpBusiness(client, { businessName: 'Topology Co' });
      const web = await create({ name: 'web', team: 'front' }, owner);
      const api = await create({ name: 'api' }, owner);
      const edge = await depend(web.id, api.id, owner);
      const reply = await client.request('GET', `${MAP}/topology`, undefined, owner.auth);
      expect(reply.status).toBe(200);
      expect(reply.body.data.nodes).toEqual(
        expect.arrayContaining([
          { id: web.id, name: 'web', team: 'front' },
          { id: api.id, name: 'api', team: null },
        ]),
      );
      expect(reply.body.data.edges).toEqual([{ id: edge.id, sourceId: api.id, targetId: web.id }]);
    });

    it('walks dependents breadth first, each once at its fewest hops, through cycles, to a depth', async () => {
      const owner = await signUpBusiness(client, { businessName: 'Impact Co' });
      const [db, api, web, mobile, report] = await Promise.all(
        ['db', 'api', 'web', 'mobile', 'report'].map((name) => create({ name }, owner)),
      );
      const ids = { db, api, web, mobile, report } as Record<string, { id: string }>;
      for (const [source, target] of [
        ['api', 'db'],
        ['web', 'api'],
        ['mobile', 'api'],
        ['report', 'db'],
        ['report', 'web'],
        ['db', 'web'],
      ] as const) {
        await depend(ids[source]?.id ?? '', ids[target]?.id ?? '', owner);
      }
      const impact = async (query = '') => {
        const reply = await client.request('GET', `${MAP}/${db?.id}/downstream-impact${query}`, undefined, owner.auth);
        expect(reply.status).toBe(200);
        return reply.body.data.impactedServices as { name: string; depth: number }[];
      };
      const all = await impact();
      expect(all.map(({ name, depth }) => [name, depth])).toEqual(
        expect.arrayContaining([
          ['api', 1],
          ['report', 1],
          ['web', 2],
          ['mobile', 2],
        ]),
      );
      expect(all).toHaveLength(4);
      expect(all.map(({ depth }) => depth)).toEqual([1, 1, 2, 2]);
      expect((await impact('?depth=1')).map(({ name }) => name).sort()).toEqual(['api', 'report']);
      const bad = await client.request('GET', `${MAP}/${db?.id}/downstream-impact?depth=0`, undefined, owner.auth);
      expect(bad.status).toBe(400);
      expect(fieldsOf(bad.body.errors)).toEqual(['depth']);
    });

    it('deletes one edge, then 404 for it; deleting a service removes all its edges and frees its name', async () => {
      const owner = await signUpBusiness(client, { businessName: 'Delete Co' });
      const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((name) => create({ name }, owner)));
      const ab = await depend(a?.id ?? '', b?.id ?? '', owner);
      await depend(b?.id ?? '', c?.id ?? '', owner);
      const ca = await depend(c?.id ?? '', a?.id ?? '', owner);
      const removed = await client.request('DELETE', `${MAP}/dependencies/${ca.id}`, undefined, owner.auth);
      expect(removed.status).toBe(200);
      expect(removed.body.data).toEqual({ id: ca.id });
      for (const [id, as] of [
        [ca.id, owner],
        ['nonsense', owner],
        [ab.id, admin],
      ] as const) {
        expect((await client.request('DELETE', `${MAP}/dependencies/${id}`, undefined, as.auth)).status).toBe(404);
      }
      const deleted = await client.request('DELETE', `${MAP}/${b?.id}`, undefined, owner.auth);
      expect(deleted.status).toBe(200);
      expect(deleted.body.data).toEqual({ id: b?.id });
      const topology = await client.request('GET', `${MAP}/topology`, undefined, owner.auth);
      expect(topology.body.data.nodes.map((node: { name: string }) => node.name).sort()).toEqual(['a', 'c']);
      expect(topology.body.data.edges).toEqual([]);
      await create({ name: 'B' }, owner);
      expect((await client.request('DELETE', `${MAP}/${b?.id}`, undefined, owner.auth)).status).toBe(404);
    });
  });

  describe('roles and scopes', () => {
    it('lets a VIEWER read but not change', async () => {
      const service = await create({ name: unique('viewed') });
      expect((await client.request('GET', MAP, undefined, viewer.auth)).status).toBe(200);
      expect((await client.request('GET', `${MAP}/topology`, undefined, viewer.auth)).status).toBe(200);
      expect((await client.request('GET', `${MAP}/${service.id}`, undefined, viewer.auth)).status).toBe(200);
      for (const [method, path, body] of [
        ['POST', MAP, { name: unique('nope') }],
        ['PATCH', `${MAP}/${service.id}`, { team: 'x' }],
        ['DELETE', `${MAP}/${service.id}`, undefined],
        ['POST', `${MAP}/dependencies`, { sourceId: service.id, targetId: UNKNOWN_ID }],
      ] as const) {
        expect((await client.request(method, path, body, viewer.auth)).status, `${method} ${path}`).toBe(403);
      }
    });

    it('reads with incidents:read and writes with incidents:write keys', async () => {
      const reader = await apiKeyHeaders(client, admin, ['incidents:read']);
      const writer = await apiKeyHeaders(client, admin, ['incidents:write']);
      expect((await client.request('GET', `${MAP}/topology`, undefined, reader)).status).toBe(200);
      expect((await client.request('POST', MAP, { name: unique('keyed') }, reader)).status).toBe(403);
      expect((await client.request('POST', MAP, { name: unique('keyed') }, writer)).status).toBe(201);
      expect((await client.request('GET', MAP, undefined, writer)).status).toBe(403);
    });
  });
});
