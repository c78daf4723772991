import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpBusiness } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

const APP = 'https://app.acme.test';
const OTHER = 'https://evil.test';

describe('CORS with allowed origins', () => {
  let client: TestClient;
  let auth: Record<string, string>;

  beforeAll(async () => {
    client = await startTestStack(':memory:', undefined, { allowedOrigins: `${APP}, https://admin.acme.test` });
    ({ auth } = await signUpBusiness(client));
  });
  afterAll(() => client.stack.stop());

  it('answers a preflight from an allowed origin with the methods of the resource', async () => {
    const reply = await client.request('OPTIONS', '/api/v1/incident-ticket', undefined, {
      origin: APP,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
    });
    expect(reply.status).toBe(204);
    expect(reply.headers.get('access-control-allow-origin')).toBe(APP);
    expect(reply.headers.get('access-control-allow-methods')?.split(',')).toEqual(
      expect.arrayContaining(['GET', 'POST', 'OPTIONS']),
    );
    expect(reply.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    expect(reply.headers.get('access-control-allow-headers')).toMatch(/X-API-Key/);
    expect(reply.headers.get('access-control-max-age')).toBe('600');
  });

  it('names no origin to a preflight from an origin not listed', async () => {
    const reply = await client.request('OPTIONS', '/api/v1/incident-ticket', undefined, { origin: OTHER });
    expect(reply.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets an allowed origin read answers, errors and the headers scripts need', async () => {
    const listed = await client.request('GET', '/api/v1/incident-ticket', undefined, { ...auth, origin: APP });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBe(APP);
    expect(listed.headers.get('access-control-expose-headers')).toMatch(/x-request-id/);
    expect(listed.headers.get('access-control-expose-headers')).toMatch(/ratelimit-remaining/);
    expect(listed.headers.get('vary')).toMatch(/Origin/);

    const refused = await client.request('GET', '/api/v1/incident-ticket', undefined, { origin: APP });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(APP);

    const unknown = await client.request('GET', '/api/v1/no-such-route', undefined, { origin: APP });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('does not name an origin that is not listed', async () => {
    const reply = await client.request('GET', '/api/v1/incident-ticket', undefined, { ...auth, origin: OTHER });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS by default', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await startTestStack();
  });
  afterAll(() => client.stack.stop());

  it('answers any origin: credentials are headers a script sets, never cookies', async () => {
    const preflight = await client.request('OPTIONS', '/api/v1/incident-ticket', undefined, {
      origin: OTHER,
      'access-control-request-method': 'POST',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(OTHER);
    const health = await client.request('GET', '/api/v1/health', undefined, { origin: OTHER });
    expect(health.headers.get('access-control-allow-origin')).toBe(OTHER);
  });
});

describe('CORS turned off', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await startTestStack(':memory:', undefined, { allowedOrigins: 'none' });
  });
  afterAll(() => client.stack.stop());

  it('has no preflight, as the gateway has no OPTIONS methods, and names no origin', async () => {
    // OPTIONS is then a method the path lacks, as in AWS, where the API's catch-all takes it.
    const preflight = await client.request('OPTIONS', '/api/v1/incident-ticket', undefined, { origin: APP });
    expect(preflight.status).toBe(405);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const health = await client.request('GET', '/api/v1/health', undefined, { origin: APP });
    expect(health.headers.get('access-control-allow-origin')).toBeNull();
  });
});
