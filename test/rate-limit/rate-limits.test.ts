import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPorts } from '#lib/ports/port-set.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { requestFrom } from '../support/from-address.ts';

const LIMITS = 'global=6/1m,login=2/15m,email=1/1m,apikey=3/1m';
const TOO_MANY = { success: false, message: 'Too many requests, please try again later', errors: [] };

/**
 * The stack's time starts a second into a minute and runs on from there: every window above is whole minutes
 * long, so none ends while the file runs (a window ending between two requests would reset the count).
 */
const sinceMinuteStarted = (Date.now() % 60_000) - 1_000;
const clock = { now: () => new Date(Date.now() - sinceMinuteStarted) };

describe('rate limits', () => {
  let client: TestClient;
  let url: string;
  beforeAll(async () => {
    client = await startTestStack(':memory:', LIMITS, { clock });
    url = client.stack.url;
  });
  afterAll(() => client.stack.stop());

  it('counts every route under the global limit per client and reports it in RateLimit-* headers', async () => {
    const replies = [];
    for (let index = 0; index < 7; index += 1)
      replies.push(await requestFrom(url, '127.0.0.11', 'GET', '/api/v1/health'));
    expect(replies.slice(0, 6).map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(replies.slice(0, 6).map((reply) => reply.headers['ratelimit-remaining'])).toEqual([
      '5',
      '4',
      '3',
      '2',
      '1',
      '0',
    ]);
    expect(replies[0]?.headers['ratelimit-limit']).toBe('6');
    const reset = Number(replies[0]?.headers['ratelimit-reset']);
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);

    const limited = replies[6];
    expect(limited?.status).toBe(429);
    expect(limited?.body).toEqual(TOO_MANY);
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited?.headers['ratelimit-remaining']).toBe('0');
    expect(limited?.headers['ratelimit-limit']).toBe('6');
  });

  it('keeps a separate count for each client address', async () => {
    for (let index = 0; index < 6; index += 1) await requestFrom(url, '127.0.0.12', 'GET', '/api/v1/health');
    expect((await requestFrom(url, '127.0.0.12', 'GET', '/api/v1/health')).status).toBe(429);
    expect((await requestFrom(url, '127.0.0.13', 'GET', '/api/v1/health')).status).toBe(200);
  });

  it('counts rejected requests too', async () => {
    await requestFrom(url, '127.0.0.14', 'GET', '/api/v1/business/get_members');
    const reply = await requestFrom(url, '127.0.0.14', 'GET', '/api/v1/business/get_members');
    expect(reply.status).toBe(401);
    expect(reply.headers['ratelimit-remaining']).toBe('4');
  });

  it('counts requests whose token fails against their address, and answers 429 past the limit', async () => {
    const guess = () =>
      requestFrom(url, '127.0.0.31', 'GET', '/api/v1/business/get_members', undefined, {
        authorization: 'Bearer abc.def.ghi',
      });
    const replies = [];
    for (let index = 0; index < 6; index += 1) replies.push(await guess());
    expect(replies.map((reply) => reply.status)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(replies.map((reply) => reply.headers['ratelimit-remaining'])).toEqual(['5', '4', '3', '2', '1', '0']);
    const limited = await guess();
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(TOO_MANY);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await requestFrom(url, '127.0.0.31', 'GET', '/api/v1/health')).status).toBe(429);
  });

  it('limits logins to their own, smaller budget per client', async () => {
    const attempt = () =>
      requestFrom(url, '127.0.0.15', 'POST', '/api/v1/auth/login', {
        email: 'x@example.com',
        password: 'wrong-password',
      });
    // At the start of a 15-minute window, so the time left in it does not depend on when the test runs.
    const runtime = client.stack.ports;
    const windowStart = Math.floor(Date.now() / 900_000) * 900_000;
    installPorts({ ...runtime, clock: { now: () => new Date(windowStart + 1_000) } });
    const [first, second, third] = await (async () => {
      try {
        return [await attempt(), await attempt(), await attempt()];
      } finally {
        installPorts(runtime);
      }
    })();
    expect(first.status).not.toBe(429);
    expect(second.status).not.toBe(429);
    expect(first.headers['ratelimit-limit']).toBe('2');
    expect(third.status).toBe(429);
    expect(third.body).toEqual(TOO_MANY);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(60);
    // Other routes still answer from the global budget.
    expect((await requestFrom(url, '127.0.0.15', 'GET', '/api/v1/health')).status).toBe(200);
  });

  it('counts OAuth logins and invitation acceptances, which take credentials too, under the login budget', async () => {
    for (const [path, body] of [
      [
        '/api/v1/auth/oauth/login',
        { email: 'x@example.com', provider_uuid: '1', oAuthProvider: 'codehost-a', accessToken: 't' },
      ],
      ['/api/v1/business/accept-invite', { token: 'not-a-token', password: 'guessing-a-password' }],
    ] as const) {
      const address = path.includes('oauth') ? '127.0.0.40' : '127.0.0.41';
      const attempt = () => requestFrom(url, address, 'POST', path, body);
      expect((await attempt()).status).not.toBe(429);
      expect((await attempt()).status).not.toBe(429);
      const third = await attempt();
      expect(third.status, path).toBe(429);
      expect(third.headers['ratelimit-limit']).toBe('2');
    }
  });

  it('limits the e-mail routes to one a minute per client', async () => {
    const resend = await requestFrom(url, '127.0.0.16', 'POST', '/api/v1/auth/resend_otp', { email: 'y@example.com' });
    const forgot = await requestFrom(url, '127.0.0.16', 'POST', '/api/v1/auth/forgot-password', {
      email: 'y@example.com',
    });
    expect(resend.status).not.toBe(429);
    expect(forgot.status).toBe(429);
    expect(forgot.body).toEqual(TOO_MANY);
  });

  it('lets exactly the limit through when requests arrive at once', async () => {
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => requestFrom(url, '127.0.0.17', 'GET', '/api/v1/health')),
    );
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(6);
    expect(replies.filter((reply) => reply.status === 429)).toHaveLength(14);
  });

  it('starts counting again in the next window', async () => {
    for (let index = 0; index < 7; index += 1) await requestFrom(url, '127.0.0.18', 'GET', '/api/v1/health');
    expect((await requestFrom(url, '127.0.0.18', 'GET', '/api/v1/health')).status).toBe(429);
    const runtime = client.stack.ports;
    installPorts({ ...runtime, clock: { now: () => new Date(clock.now().getTime() + 61_000) } });
    try {
      const reply = await requestFrom(url, '127.0.0.18', 'GET', '/api/v1/health');
      expect(reply.status).toBe(200);
      expect(reply.headers['ratelimit-remaining']).toBe('5');
    } finally {
      installPorts(runtime);
    }
  });
});
