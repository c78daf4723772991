import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { startTestStack } from '../support/local-stack.ts';
import { signUpBusiness, uniqueEmail } from '../support/accounts.ts';

const client = await startTestStack();
afterAll(() => client.stack.stop());

const PASSWORD = 'correct horse battery staple';
const attempt = (email: string, password: string) => client.request('POST', '/api/v1/auth/login', { email, password });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const timed = async (run: () => Promise<unknown>) => {
  const start = performance.now();
  await run();
  return performance.now() - start;
};

describe('POST /auth/login', () => {
  it('returns the user and both tokens, flat and under tokens', async () => {
    const admin = await signUpBusiness(client);
    const reply = await attempt(admin.email, PASSWORD);
    expect(reply.status).toBe(200);
    expect(reply.body.message).toBe('Logged in');
    const data = reply.body.data;
    expect(data.user).toMatchObject({ id: admin.user.id, email: admin.email, isVerified: true, roles: ['ADMIN'] });
    expect(data.accessToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(data.refreshToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(data.tokens).toEqual({ accessToken: data.accessToken, refreshToken: data.refreshToken });
    expect(JSON.stringify(data)).not.toMatch(/passwordHash/);
  });

  it('finds the account whatever the letter case and surrounding space of the address', async () => {
    const admin = await signUpBusiness(client);
    expect((await attempt(`  ${admin.email.toUpperCase()}  `, PASSWORD)).status).toBe(200);
  });

  it('answers a wrong password and an unknown address with the same 401', async () => {
    const admin = await signUpBusiness(client);
    const wrongPassword = await attempt(admin.email, 'not the password');
    const unknown = await attempt(uniqueEmail('nobody'), PASSWORD);
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body).toEqual({ success: false, message: 'Invalid email or password', errors: [] });
    expect(unknown.body).toEqual(wrongPassword.body);
    expect(unknown.status).toBe(401);
  });

  it('spends a password hash on unknown addresses too, so timing does not reveal accounts', async () => {
    // At the deployed cost, which the suite otherwise lowers (vitest.config.ts): the hash must dwarf the lookup.
    const suiteCost = process.env.SCRYPT_COST_LOG2;
    process.env.SCRYPT_COST_LOG2 = '14';
    onTestFinished(() => {
      process.env.SCRYPT_COST_LOG2 = suiteCost;
    });
    const admin = await signUpBusiness(client);
    const known: number[] = [];
    const unknown: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      known.push(await timed(() => attempt(admin.email, 'not the password')));
      unknown.push(await timed(() => attempt(uniqueEmail('nobody'), 'not the password')));
    }
    // A scrypt hash takes tens of milliseconds; a lookup alone, a few.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
  });

  it('checks the password before telling that the address is not verified', async () => {
    const email = uniqueEmail('unverified');
    const registered = await client.request('POST', '/api/v1/auth/dev/register', {
      firstName: 'Grace',
      lastName: 'Hopper',
      email,
      password: PASSWORD,
      experienceLevel: 'JUNIOR',
    });
    expect(registered.status).toBe(201);
    expect((await attempt(email, 'not the password')).status).toBe(401);
    const right = await attempt(email, PASSWORD);
    expect(right.status).toBe(403);
    expect(right.body.message).toMatch(/e-?mail not verified/i);
  });

  it('requires a valid address and a password', async () => {
    const reply = await client.request('POST', '/api/v1/auth/login', { email: 'nope' });
    expect(reply.status).toBe(400);
    expect((reply.body.errors as string[]).map((message) => message.split(':')[0]).sort()).toEqual([
      'email',
      'password',
    ]);
    expect((await client.request('POST', '/api/v1/auth/login', '{"email":')).status).toBe(400);
  });
});
