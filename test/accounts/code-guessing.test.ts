import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { latestOtp, signUpBusiness, uniqueEmail } from '../support/accounts.ts';
import { startTestStack } from '../support/local-stack.ts';

/**
 * Issue 27, finding 6: anyone who knows an address could burn its mailed code with 5 wrong guesses. Wrong
 * tries now count per requester; the stranger here calls from another loopback address (127.0.0.2).
 */
const client = await startTestStack();
afterAll(() => client.stack.stop());

const PASSWORD = 'correct horse battery staple';
const wrong = (otp: string) => String((Number(otp) + 1) % 1_000_000).padStart(6, '0');

/** A JSON POST from `localAddress`, so the service sees another client address. */
const postFrom = (localAddress: string, path: string, body: unknown): Promise<number> =>
  new Promise((resolve, reject) => {
    const target = new URL(path, client.stack.url);
    const sent = request(
      target,
      { method: 'POST', localAddress, headers: { 'content-type': 'application/json' } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    sent.on('error', reject);
    sent.end(JSON.stringify(body));
  });

describe("a stranger's wrong guesses", () => {
  it('do not burn the reset code the owner was mailed; the stranger is stopped after 5', async () => {
    const owner = await signUpBusiness(client);
    expect((await client.request('POST', '/api/v1/auth/forgot-password', { email: owner.email })).status).toBe(200);
    const otp = await latestOtp(client, owner.email);
    const guess = { email: owner.email, otp: wrong(otp), newPassword: 'the stranger wants this' };
    for (let attempt = 0; attempt < 6; attempt += 1) {
      expect(await postFrom('127.0.0.2', '/api/v1/auth/reset-password', guess)).toBe(400);
    }
    // Burnt for the stranger, even with the right code.
    expect(
      await postFrom('127.0.0.2', '/api/v1/auth/reset-password', { ...guess, otp, newPassword: 'still the stranger' }),
    ).toBe(400);
    const reset = await client.request('POST', '/api/v1/auth/reset-password', {
      email: owner.email,
      otp,
      newPassword: 'the owner chose this',
    });
    expect(reset.status, reset.text).toBe(200);
  });

  it('do not burn the verification code the owner was mailed', async () => {
    const email = uniqueEmail('guessed');
    const registered = await client.request('POST', '/api/v1/auth/dev/register', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
      password: PASSWORD,
      experienceLevel: 'SENIOR',
    });
    expect(registered.status).toBe(201);
    const otp = await latestOtp(client, email);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect(
        await postFrom('127.0.0.2', '/api/v1/auth/verify_email', {
          email,
          otp: wrong(otp),
          newPassword: 'the stranger wants this',
        }),
      ).toBe(400);
    }
    const verified = await client.request('POST', '/api/v1/auth/verify_email', { email, otp, password: PASSWORD });
    expect(verified.status, verified.text).toBe(200);
  });
});
