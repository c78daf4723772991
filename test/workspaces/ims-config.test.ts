import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

let client: TestClient;
let admin: SignedIn;

const setupIms = (who: SignedIn, body: unknown) => client.request('POST', '/api/v1/ims/setup', body, who.auth);
const getConfig = (who: SignedIn) => client.request('GET', '/api/v1/ims/config', undefined, who.auth);
const putConfig = (who: SignedIn, body: unknown) => client.request('PUT', '/api/v1/ims/config', body, who.auth);
const workspace = async (who: SignedIn) =>
  (await client.request('GET', '/api/v1/business/workspace', undefined, who.auth)).body.data;

beforeAll(async () => {
  client = await startTestStack();
  admin = await signUpBusiness(client, { businessName: 'Config Co' });
});

afterAll(async () => {
  await client.stack.stop();
});

describe('IMS configuration', () => {
  it('is 404 to read or change before setup', async () => {
    expect((await getConfig(admin)).status).toBe(404);
    expect((await putConfig(admin, { slaEnabled: true })).status).toBe(404);
    // The zone people read its times in, for the console: UTC while nothing names one.
    expect(await workspace(admin)).toEqual({ id: admin.user.businessId, businessName: 'Config Co', timezone: 'UTC' });
  });

  it('answers 400 for missing or invalid setup fields', async () => {
    const missing = await setupIms(admin, {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((error: string) => error.split(':')[0]).sort()).toEqual(['alertEmail', 'timezone']);
    const invalid = await setupIms(admin, { alertEmail: 'ops', timezone: 'Atlantis/Capital', slaEnabled: 'yes' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toHaveLength(3);
  });

  it('sets up once with the defaults (201), and a second setup is 409', async () => {
    const reply = await setupIms(admin, { alertEmail: 'Ops@Example.com', timezone: 'America/New_York' });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.data).toEqual({
      alertEmail: 'ops@example.com',
      timezone: 'America/New_York',
      slackChannel: null,
      slaEnabled: false,
      autoEscalate: false,
      notifyOnCreate: true,
      notifyOnResolve: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const again = await setupIms(admin, { alertEmail: 'other@example.com', timezone: 'UTC', slaEnabled: true });
    expect(again.status).toBe(409);
    const read = await getConfig(admin);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(reply.body.data);
    expect((await workspace(admin)).timezone).toBe('America/New_York');
  });

  it('changes only the provided fields', async () => {
    const before = (await getConfig(admin)).body.data;
    const reply = await putConfig(admin, { slaEnabled: true, slackChannel: '#incidents', notifyOnCreate: false });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data).toEqual({
      ...before,
      slaEnabled: true,
      slackChannel: '#incidents',
      notifyOnCreate: false,
      updatedAt: expect.any(String),
    });
    expect((await getConfig(admin)).body.data).toEqual(reply.body.data);
    const cleared = await putConfig(admin, { slackChannel: null, timezone: 'Asia/Kolkata' });
    expect(cleared.body.data).toMatchObject({ slackChannel: null, timezone: 'Asia/Kolkata', slaEnabled: true });
  });

  it('answers 400 for an update without fields or with an invalid one', async () => {
    const empty = await putConfig(admin, {});
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0]).toMatch(/at least one/);
    expect((await putConfig(admin, { timezone: 'Nowhere/Land' })).status).toBe(400);
    expect((await putConfig(admin, { alertEmail: 'not-an-address' })).status).toBe(400);
    expect((await putConfig(admin, { autoEscalate: 'true' })).status).toBe(400);
  });

  it('keeps each workspace to its own configuration', async () => {
    const other = await signUpBusiness(client, { businessName: 'Other Co' });
    expect((await getConfig(other)).status).toBe(404);
    const own = await setupIms(other, {
      alertEmail: 'oncall@other.example',
      timezone: 'Europe/Paris',
      autoEscalate: true,
    });
    expect(own.status).toBe(201);
    expect((await getConfig(other)).body.data).toMatchObject({
      alertEmail: 'oncall@other.example',
      autoEscalate: true,
    });
    expect((await getConfig(admin)).body.data).toMatchObject({ alertEmail: 'ops@example.com', autoEscalate: false });
  });

  it('answers 401 without a Bearer token', async () => {
    expect((await client.request('GET', '/api/v1/ims/config')).status).toBe(401);
    expect(
      (await client.request('POST', '/api/v1/ims/setup', { alertEmail: 'a@b.example', timezone: 'UTC' })).status,
    ).toBe(401);
    expect((await client.request('PUT', '/api/v1/ims/config', { slaEnabled: true })).status).toBe(401);
  });
});
