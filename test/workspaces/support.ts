import { expect } from 'vitest';
import { latestOtp, login, uniqueEmail, type SignedIn } from '../support/accounts.ts';
import type { TestClient } from '../support/local-stack.ts';

export const PASSWORD = 'correct horse battery staple';

/** The invitation token most recently mailed to `email`, read from the local mailbox. */
const latestInviteToken = async (client: TestClient, email: string): Promise<string> => {
  const mail = await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`);
  const token = (mail.body?.data as { token?: string }[] | undefined)?.find((message) => message.token)?.token;
  if (!token) throw new Error(`no invitation was mailed to ${email}`);
  return token;
};

/** Sends an invitation as `admin` and returns the mailed token. */
export const invite = async (
  client: TestClient,
  admin: SignedIn,
  email: string,
  role: 'ADMIN' | 'ENGINEER' | 'VIEWER' = 'ENGINEER',
): Promise<string> => {
  const sent = await client.request(
    'POST',
    '/api/v1/business/send-invite',
    { email, role, accessPermissions: ['incidents'], level: 'SENIOR' },
    admin.auth,
  );
  expect(sent.status, sent.text).toBe(201);
  return latestInviteToken(client, email);
};

/** A new account that joined `admin`'s workspace by invitation with `role`, signed in. */
export const joinByInvitation = async (
  client: TestClient,
  admin: SignedIn,
  role: 'ADMIN' | 'ENGINEER' | 'VIEWER',
): Promise<SignedIn> => {
  const email = uniqueEmail(role.toLowerCase());
  const token = await invite(client, admin, email, role);
  const accepted = await client.request('POST', '/api/v1/business/accept-invite', {
    token,
    password: PASSWORD,
    firstName: 'Grace',
    lastName: 'Hopper',
  });
  expect(accepted.status, accepted.text).toBe(200);
  return login(client, email, PASSWORD);
};

/** A verified developer account without a workspace, signed in. */
export const signUpDeveloper = async (client: TestClient, email = uniqueEmail('dev')): Promise<SignedIn> => {
  const registered = await client.request('POST', '/api/v1/auth/dev/register', {
    firstName: 'Linus',
    lastName: 'Torvalds',
    email,
    password: PASSWORD,
    experienceLevel: 'SENIOR',
  });
  expect(registered.status, registered.text).toBe(201);
  const verified = await client.request('POST', '/api/v1/auth/verify_email', {
    email,
    otp: await latestOtp(client, email),
    password: PASSWORD,
  });
  expect(verified.status, verified.text).toBe(200);
  return login(client, email, PASSWORD);
};
