import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

let client: TestClient;
let owner: SignedIn;

beforeAll(async () => {
  client = await startTestStack();
  owner = await signUpBusiness(client, { businessName: 'Signing out' });
});

afterAll(async () => {
  await client?.stack.stop();
});

const me = (session: SignedIn) => client.request('GET', '/api/v1/incident-ticket', undefined, session.auth);
const refresh = (refreshToken: string) => client.request('POST', '/api/v1/auth/refresh-token', { refreshToken });

describe('POST /api/v1/auth/logout', () => {
  it('ends the login: its refresh token and its access token answer 401; another login keeps working', async () => {
    const session = await login(client, owner.email, owner.password);
    const other = await login(client, owner.email, owner.password);
    expect((await me(session)).status).toBe(200);
    const out = await client.request('POST', '/api/v1/auth/logout', { refreshToken: session.refreshToken });
    expect(out.status, out.text).toBe(200);
    expect(out.body).toMatchObject({ success: true, data: {} });
    expect(out.headers.get('cache-control')).toBe('no-store');
    expect((await me(session)).status).toBe(401);
    expect((await refresh(session.refreshToken)).status).toBe(401);
    expect((await me(other)).status).toBe(200);
    expect((await refresh(other.refreshToken)).status).toBe(200);
  });

  it('refuses a token this service did not sign, and a missing one', async () => {
    expect((await client.request('POST', '/api/v1/auth/logout', { refreshToken: 'forged.token.here' })).status).toBe(
      401,
    );
    const missing = await client.request('POST', '/api/v1/auth/logout', {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]).toMatch(/^refreshToken: /);
  });
});
