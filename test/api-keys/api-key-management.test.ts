import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LocalUsagePlan } from '#infra/local/local-usage-plan.ts';
import { installPorts } from '#lib/ports/port-set.ts';
import { signUpBusiness, type SignedIn, joinAs } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { SIGNALS, createKey, expectAdmitted, listKeys } from './api-key-requests.ts';
import { hashApiKeySecret, parseApiKey } from '#lib/api-keys/api-key.ts';

/** What the usage plan holds for a raw key: the hash of its secret, never the key. */
const secretHashOf = (raw: string): string => hashApiKeySecret(parseApiKey(raw)?.secret ?? '');

const CREATE = '/api/v1/apikey/createapikey';
const LIST = '/api/v1/apikey/apikeys';
const HOUR = 3_600_000;

describe('API key management', () => {
  let client: TestClient;
  let admin: SignedIn;
  let otherAdmin: SignedIn;
  let usagePlan: LocalUsagePlan;
  beforeAll(async () => {
    client = await startTestStack();
    usagePlan = client.stack.ports.usagePlan as LocalUsagePlan;
    [admin, otherAdmin] = await Promise.all([
      signUpBusiness(client),
      signUpBusiness(client, { businessName: 'Other Co' }),
    ]);
  });
  afterEach(() => installPorts(client.stack.ports));
  afterAll(() => client.stack.stop());

  describe('POST /apikey/createapikey', () => {
    it('creates an active key and returns its raw value once, as ims_<workspace>.<id>.<secret>', async () => {
      const reply = await client.request(
        'POST',
        CREATE,
        {
          name: '  Alertmanager  ',
          environment: 'STAGING',
          scopes: ['ingestion:write', 'incidents:read', 'ingestion:write'],
        },
        admin.auth,
      );
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject({ success: true, message: 'API key created' });
      const data = reply.body.data;
      expect(data).toEqual({
        id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
        name: 'Alertmanager',
        key: expect.any(String),
        environment: 'STAGING',
        scopes: ['ingestion:write', 'incidents:read'],
        expiresAt: null,
        isActive: true,
        lastUsedAt: null,
        rotatedAt: null,
        createdAt: expect.any(String),
        updatedAt: data.createdAt,
      });
      expect(data.key).toBe(`ims_${admin.user.businessId}.${data.id}.${data.key.split('.')[2]}`);
      expect(data.key.split('.')[2]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it('keeps an expiry given with an offset, in UTC', async () => {
      const later = new Date(Date.now() + 48 * HOUR);
      const withOffset = `${later.toISOString().slice(0, 19)}+02:00`;
      const key = await createKey(client, admin, { expiresAt: withOffset });
      expect(key).toMatchObject({ expiresAt: new Date(withOffset).toISOString() });
    });

    it('answers 400 naming every missing or invalid field', async () => {
      const missing = await client.request('POST', CREATE, {}, admin.auth);
      expect(missing.status).toBe(400);
      expect(missing.body.success).toBe(false);
      expect(missing.body.errors).toEqual([
        expect.stringMatching(/^name: /),
        expect.stringMatching(/^environment: /),
        expect.stringMatching(/^scopes: /),
      ]);

      const invalid = await client.request(
        'POST',
        CREATE,
        { name: 'x'.repeat(101), environment: 'TEST', scopes: ['incidents:read', 'admin:all'], expiresAt: 'tomorrow' },
        admin.auth,
      );
      expect(invalid.status).toBe(400);
      expect(invalid.body.errors).toEqual([
        expect.stringMatching(/^name: /),
        expect.stringMatching(/^environment: /),
        expect.stringMatching(/^scopes\.1: /),
        expect.stringMatching(/^expiresAt: /),
      ]);
    });

    it('requires at least one scope and a non-blank name', async () => {
      const reply = await client.request(
        'POST',
        CREATE,
        { name: '   ', environment: 'PRODUCTION', scopes: [] },
        admin.auth,
      );
      expect(reply.status).toBe(400);
      expect(reply.body.errors).toEqual([expect.stringMatching(/^name: /), expect.stringMatching(/^scopes: /)]);
    });

    it('refuses an expiry in the past, or one without a time zone', async () => {
      const past = await client.request(
        'POST',
        CREATE,
        {
          name: 'old',
          environment: 'PRODUCTION',
          scopes: ['incidents:read'],
          expiresAt: new Date(Date.now() - 1000).toISOString(),
        },
        admin.auth,
      );
      expect(past.status).toBe(400);
      expect(past.body.errors).toEqual(['expiresAt: must be in the future']);

      const local = await client.request(
        'POST',
        CREATE,
        { name: 'local', environment: 'PRODUCTION', scopes: ['incidents:read'], expiresAt: '2999-01-01T00:00:00' },
        admin.auth,
      );
      expect(local.status).toBe(400);
    });

    it('answers 401 without a Bearer token, and to an API key even with every scope', async () => {
      const body = { name: 'k', environment: 'PRODUCTION', scopes: ['incidents:read'] };
      expect((await client.request('POST', CREATE, body)).status).toBe(401);
      const key = await createKey(client, admin, {
        scopes: [
          'incidents:read',
          'incidents:write',
          'postmortems:read',
          'postmortems:write',
          'analytics:read',
          'integrations:read',
          'integrations:write',
          'ingestion:write',
        ],
      });
      const byKey = await client.request('POST', CREATE, body, { 'x-api-key': key.key });
      expect(byKey.status).toBe(401);
      expect((await client.request('GET', LIST, undefined, { 'x-api-key': key.key })).status).toBe(401);
      expect((await client.request('GET', LIST, undefined, { authorization: `ApiKey ${key.key}` })).status).toBe(401);
    });
  });

  describe('GET /apikey/apikeys', () => {
    it('lists the workspace keys newest first, with lastUsedAt, never a secret or its hash', async () => {
      const first = await createKey(client, admin, { name: 'first' });
      const second = await createKey(client, admin, { name: 'second' });
      expectAdmitted(await client.request('GET', SIGNALS, undefined, { 'x-api-key': second.key }));

      const reply = await client.request('GET', LIST, undefined, admin.auth);
      expect(reply.status).toBe(200);
      const keys = reply.body.data as Record<string, unknown>[];
      const ids = keys.map((key) => key.id);
      expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
      expect([...ids].sort().reverse()).toEqual(ids);
      for (const key of keys) {
        expect(Object.keys(key).sort()).toEqual([
          'createdAt',
          'environment',
          'expiresAt',
          'id',
          'isActive',
          'lastUsedAt',
          'name',
          'rotatedAt',
          'scopes',
          'updatedAt',
        ]);
      }
      expect(keys.find((key) => key.id === second.id)?.lastUsedAt).toEqual(expect.any(String));
      expect(keys.find((key) => key.id === first.id)?.lastUsedAt).toBeNull();
      expect(reply.text).not.toContain(first.key.split('.')[2]);
      expect(reply.text).not.toContain(second.key.split('.')[2]);
      expect(reply.text).not.toMatch(/secretHash|usagePlanKeyId|[0-9a-f]{64}/);
    });

    it('lists only the caller workspace keys', async () => {
      const mine = await createKey(client, admin, { name: 'mine' });
      const theirs = await listKeys(client, otherAdmin);
      expect(theirs.map((key) => key.id)).not.toContain(mine.id);
    });
  });

  describe('POST /apikey/:id/rotate', () => {
    it('returns a new raw key for the same id; only the new one works from the next request', async () => {
      const key = await createKey(client, admin);
      const reply = await client.request('POST', `/api/v1/apikey/${key.id}/rotate`, undefined, admin.auth);
      expect(reply.status).toBe(200);
      expect(reply.body.data).toEqual({ id: key.id, key: expect.stringMatching(new RegExp(`^ims_.+\\.${key.id}\\.`)) });
      expect(reply.body.data.key).not.toBe(key.key);

      expect((await client.request('GET', SIGNALS, undefined, { 'x-api-key': key.key })).status).toBe(401);
      expectAdmitted(await client.request('GET', SIGNALS, undefined, { 'x-api-key': reply.body.data.key }));
      const listed = (await listKeys(client, admin)).find((entry) => entry.id === key.id);
      expect(listed?.rotatedAt).toEqual(expect.any(String));
    });

    it('answers 409 for a revoked key and 404 for an unknown one', async () => {
      const key = await createKey(client, admin);
      expect((await client.request('POST', `/api/v1/apikey/${key.id}/revoke`, undefined, admin.auth)).status).toBe(200);
      const revoked = await client.request('POST', `/api/v1/apikey/${key.id}/rotate`, undefined, admin.auth);
      expect(revoked.status).toBe(409);
      expect(revoked.body).toMatchObject({ success: false, errors: expect.any(Array) });

      const unknown = await client.request(
        'POST',
        '/api/v1/apikey/01JZZZZZZZZZZZZZZZZZZZZZZZ/rotate',
        undefined,
        admin.auth,
      );
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ success: false, message: 'API key not found', errors: [] });
    });
  });

  describe('POST /apikey/:id/revoke and PUT /apikey/:id', () => {
    it('revokes with an empty data object, keeping the record, and reactivates with isActive true', async () => {
      const key = await createKey(client, admin);
      const revoked = await client.request('POST', `/api/v1/apikey/${key.id}/revoke`, undefined, admin.auth);
      expect(revoked.status).toBe(200);
      expect(revoked.body).toEqual({ success: true, message: 'API key revoked', data: {} });
      expect((await listKeys(client, admin)).find((entry) => entry.id === key.id)).toMatchObject({ isActive: false });

      const reactivated = await client.request('PUT', `/api/v1/apikey/${key.id}`, { isActive: true }, admin.auth);
      expect(reactivated.status).toBe(200);
      expect(reactivated.body.data).toMatchObject({ id: key.id, isActive: true, name: key.name });
      expect(reactivated.body.data).not.toHaveProperty('key');
      expectAdmitted(await client.request('GET', SIGNALS, undefined, { 'x-api-key': key.key }));
    });

    it('renames a key and can deactivate it in the same request', async () => {
      const key = await createKey(client, admin);
      const reply = await client.request(
        'PUT',
        `/api/v1/apikey/${key.id}`,
        { name: 'Renamed', isActive: false },
        admin.auth,
      );
      expect(reply.status).toBe(200);
      expect(reply.body.data).toMatchObject({ id: key.id, name: 'Renamed', isActive: false, scopes: key.scopes });
      expect(reply.body.data.updatedAt > reply.body.data.createdAt).toBe(true);
    });

    it('answers 400 to an update with nothing to change or a wrong type', async () => {
      const key = await createKey(client, admin);
      const empty = await client.request('PUT', `/api/v1/apikey/${key.id}`, {}, admin.auth);
      expect(empty.status).toBe(400);
      expect(empty.body.errors).toEqual(['body: Provide name, isActive or both']);
      const wrong = await client.request('PUT', `/api/v1/apikey/${key.id}`, { isActive: 'yes', name: '' }, admin.auth);
      expect(wrong.status).toBe(400);
      expect(wrong.body.errors).toEqual([expect.stringMatching(/^name: /), expect.stringMatching(/^isActive: /)]);
    });

    it('answers 404 for an unknown key', async () => {
      const id = '01JZZZZZZZZZZZZZZZZZZZZZZZ';
      expect((await client.request('POST', `/api/v1/apikey/${id}/revoke`, undefined, admin.auth)).status).toBe(404);
      expect((await client.request('PUT', `/api/v1/apikey/${id}`, { name: 'x' }, admin.auth)).status).toBe(404);
    });
  });

  describe('DELETE /apikey/:id', () => {
    it('deletes permanently with an empty data object; the key no longer authenticates', async () => {
      const key = await createKey(client, admin);
      const reply = await client.request('DELETE', `/api/v1/apikey/${key.id}`, undefined, admin.auth);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ success: true, message: 'API key deleted', data: {} });
      expect((await listKeys(client, admin)).map((entry) => entry.id)).not.toContain(key.id);
      expect((await client.request('GET', SIGNALS, undefined, { 'x-api-key': key.key })).status).toBe(401);
      expect((await client.request('DELETE', `/api/v1/apikey/${key.id}`, undefined, admin.auth)).status).toBe(404);
    });
  });

  it('answers 403 to every management route for a member who is not ADMIN', async () => {
    const key = await createKey(client, admin);
    const engineer = await joinAs(client, admin, 'ENGINEER');
    const path = `/api/v1/apikey/${key.id}`;
    const replies = [
      await client.request(
        'POST',
        CREATE,
        { name: 'k', environment: 'PRODUCTION', scopes: ['incidents:read'] },
        engineer.auth,
      ),
      await client.request('GET', LIST, undefined, engineer.auth),
      await client.request('POST', `${path}/rotate`, undefined, engineer.auth),
      await client.request('POST', `${path}/revoke`, undefined, engineer.auth),
      await client.request('PUT', path, { name: 'mine now' }, engineer.auth),
      await client.request('DELETE', path, undefined, engineer.auth),
    ];
    expect(replies.map((reply) => reply.status)).toEqual([403, 403, 403, 403, 403, 403]);
    expect((await listKeys(client, admin)).find((entry) => entry.id === key.id)).toMatchObject({
      name: key.name,
      isActive: true,
    });
  });

  it("answers 404 for another workspace's key on rotate, revoke, update and delete, and leaves it as it was", async () => {
    const key = await createKey(client, admin, { name: 'not yours' });
    const path = `/api/v1/apikey/${key.id}`;
    const replies = [
      await client.request('POST', `${path}/rotate`, undefined, otherAdmin.auth),
      await client.request('POST', `${path}/revoke`, undefined, otherAdmin.auth),
      await client.request('PUT', path, { name: 'taken', isActive: false }, otherAdmin.auth),
      await client.request('DELETE', path, undefined, otherAdmin.auth),
    ];
    expect(replies.map((reply) => reply.status)).toEqual([404, 404, 404, 404]);
    expect((await listKeys(client, admin)).find((entry) => entry.id === key.id)).toMatchObject({
      name: 'not yours',
      isActive: true,
      rotatedAt: null,
    });
    expectAdmitted(await client.request('GET', SIGNALS, undefined, { 'x-api-key': key.key }));
  });

  describe('the usage-plan mirror (in memory locally)', () => {
    it('follows create, revoke, reactivation, rotation and delete', async () => {
      const key = await createKey(client, admin);
      expect(usagePlan.mirrorsOf(key.id)).toEqual([
        {
          mirrorId: expect.any(String),
          id: key.id,
          workspaceId: admin.user.businessId,
          value: secretHashOf(key.key),
          enabled: true,
        },
      ]);

      await client.request('POST', `/api/v1/apikey/${key.id}/revoke`, undefined, admin.auth);
      expect(usagePlan.mirrorsOf(key.id).map((mirror) => mirror.enabled)).toEqual([false]);
      await client.request('PUT', `/api/v1/apikey/${key.id}`, { name: 'renamed only' }, admin.auth);
      expect(usagePlan.mirrorsOf(key.id).map((mirror) => mirror.enabled)).toEqual([false]);
      await client.request('PUT', `/api/v1/apikey/${key.id}`, { isActive: true }, admin.auth);
      expect(usagePlan.mirrorsOf(key.id).map((mirror) => mirror.enabled)).toEqual([true]);

      const before = usagePlan.mirrorsOf(key.id)[0]?.mirrorId;
      const rotated = await client.request('POST', `/api/v1/apikey/${key.id}/rotate`, undefined, admin.auth);
      const mirrors = usagePlan.mirrorsOf(key.id);
      expect(mirrors).toEqual([expect.objectContaining({ value: secretHashOf(rotated.body.data.key), enabled: true })]);
      expect(mirrors[0]?.mirrorId).not.toBe(before);

      await client.request('DELETE', `/api/v1/apikey/${key.id}`, undefined, admin.auth);
      expect(usagePlan.mirrorsOf(key.id)).toEqual([]);
    });

    it('stores no key when the mirror cannot be registered, and answers 500', async () => {
      const before = (await listKeys(client, admin)).length;
      installPorts({
        ...client.stack.ports,
        usagePlan: { ...usagePlan, register: () => Promise.reject(new Error('gateway down')) },
      });
      const reply = await client.request(
        'POST',
        CREATE,
        { name: 'k', environment: 'PRODUCTION', scopes: ['incidents:read'] },
        admin.auth,
      );
      expect(reply.status).toBe(500);
      expect(reply.body).toEqual({ success: false, message: 'Internal server error', errors: [] });
      installPorts(client.stack.ports);
      expect(await listKeys(client, admin)).toHaveLength(before);
    });

    it('keeps the old secret when the new mirror cannot be registered at rotation', async () => {
      const key = await createKey(client, admin);
      installPorts({
        ...client.stack.ports,
        usagePlan: { ...usagePlan, register: () => Promise.reject(new Error('gateway down')) },
      });
      expect((await client.request('POST', `/api/v1/apikey/${key.id}/rotate`, undefined, admin.auth)).status).toBe(500);
      installPorts(client.stack.ports);
      expectAdmitted(await client.request('GET', SIGNALS, undefined, { 'x-api-key': key.key }));
      expect(usagePlan.mirrorsOf(key.id)).toHaveLength(1);
    });
  });
});
