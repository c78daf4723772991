import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAckLink } from '#lib/notifications/ack-token.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { createIncident } from '../support/incidents.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

let client: TestClient;
let admin: SignedIn;

beforeAll(async () => {
  client = await startTestStack();
  admin = await signUpBusiness(client, { businessName: 'Headers' });
});

afterAll(async () => {
  await client?.stack.stop();
});

const expectEveryAnswerHeaders = (headers: Headers): void => {
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('no-referrer');
};

describe('security headers', () => {
  it('JSON answers, errors and route misses carry nosniff and no referrer; no HSTS on local http', async () => {
    for (const reply of [
      await client.request('GET', '/api/v1/incident-ticket', undefined, admin.auth),
      await client.request('GET', '/api/v1/incident-ticket'),
      await client.request('GET', '/api/v1/no-such-route'),
    ]) {
      expectEveryAnswerHeaders(reply.headers);
      expect(reply.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('answers carrying a token are not stored', async () => {
    const login = await client.request('POST', '/api/v1/auth/login', { email: admin.email, password: admin.password });
    expect(login.status, login.text).toBe(200);
    expect(login.headers.get('cache-control')).toBe('no-store');
    const refresh = await client.request('POST', '/api/v1/auth/refresh-token', {
      refreshToken: login.body.data.refreshToken,
    });
    expect(refresh.status, refresh.text).toBe(200);
    expect(refresh.headers.get('cache-control')).toBe('no-store');
  });

  it('HTML answers may not be framed', async () => {
    const incident = await createIncident(client, admin.auth);
    const token = await signAckLink(client.stack.ports.signingKeys, {
      linkId: 'headers-link',
      workspaceId: admin.user.businessId as string,
      incidentId: incident.id,
      by: admin.email,
      userId: admin.user.id,
      channel: 'email',
      recipient: admin.email,
      event: 'OPENED',
      eventAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    const page = await client.request('GET', `/api/v1/ack/${token}`);
    expect(page.status, page.text).toBe(200);
    expectEveryAnswerHeaders(page.headers);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('HSTS where the request came over HTTPS, as API Gateway forwards it', async () => {
    const reply = await client.request('GET', '/api/v1/incident-ticket', undefined, {
      ...admin.auth,
      'x-forwarded-proto': 'https',
    });
    expect(reply.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
  });
});
