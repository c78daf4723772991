import type { HttpClient } from './local-stack.ts';

export interface SignedIn {
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  user: { id: string; businessId: string | null; roles: string[] };
  /** `Authorization: Bearer ...` for this account. */
  auth: Record<string, string>;
}

let counter = 0;
/** What people read names a signed-up admin and a joined member by, unless a test gives other names. */
export const ADMIN_NAME = { firstName: 'Ada', lastName: 'Lovelace' };
export const MEMBER_NAME = { firstName: 'Grace', lastName: 'Hopper' };

/** A name as what people read writes it (lib/workspaces/member-name.ts). */
export const fullName = ({ firstName, lastName }: { firstName: string; lastName: string }): string =>
  `${firstName} ${lastName}`;

export const uniqueEmail = (label = 'user'): string =>
  `${label}-${Date.now().toString(36)}-${(counter += 1)}@example.com`;

const expectStatus = (reply: { status: number; text: string }, status: number, step: string): void => {
  if (reply.status !== status) throw new Error(`${step}: expected ${status}, got ${reply.status}: ${reply.text}`);
};

/** The one-time code most recently mailed to `email`, read from the local mailbox. */
export const latestOtp = async (client: HttpClient, email: string): Promise<string> => {
  const mail = await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`);
  const otp = (mail.body?.data as { otp?: string }[] | undefined)?.find((message) => message.otp)?.otp;
  if (!otp) throw new Error(`no one-time code was mailed to ${email}`);
  return otp;
};

export const login = async (client: HttpClient, email: string, password: string): Promise<SignedIn> => {
  const reply = await client.request('POST', '/api/v1/auth/login', { email, password });
  expectStatus(reply, 200, 'login');
  const { accessToken, refreshToken, user } = reply.body.data;
  return { email, password, accessToken, refreshToken, user, auth: { authorization: `Bearer ${accessToken}` } };
};

/** Registers a business through the API, verifies the address with the mailed code, and signs in as its ADMIN. */
export const signUpBusiness = async (
  client: HttpClient,
  overrides: Partial<Record<'businessName' | 'email' | 'password' | 'firstName' | 'lastName', string>> = {},
): Promise<SignedIn> => {
  const email = overrides.email ?? uniqueEmail('admin');
  const password = overrides.password ?? 'correct horse battery staple';
  const registered = await client.request('POST', '/api/v1/auth/business/register', {
    businessName: overrides.businessName ?? 'Acme Ops',
    firstName: overrides.firstName ?? ADMIN_NAME.firstName,
    lastName: overrides.lastName ?? ADMIN_NAME.lastName,
    email,
    password,
  });
  expectStatus(registered, 201, 'business register');
  const verified = await client.request('POST', '/api/v1/auth/verify_email', {
    email,
    otp: await latestOtp(client, email),
    password,
  });
  expectStatus(verified, 200, 'verify_email');
  return login(client, email, password);
};

/** Invites a new person into the admin's workspace with `role`, accepts through the mailed token, and signs in. */
export const joinAs = async (
  client: HttpClient,
  admin: SignedIn,
  role: 'ADMIN' | 'ENGINEER' | 'VIEWER',
  email = uniqueEmail(role.toLowerCase()),
): Promise<SignedIn> => {
  const password = 'another long password';
  const invited = await client.request(
    'POST',
    '/api/v1/business/send-invite',
    { email, role, accessPermissions: [] },
    admin.auth,
  );
  expectStatus(invited, 201, 'send-invite');
  const mail = await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`);
  const token = (mail.body?.data as { token?: string }[] | undefined)?.find((message) => message.token)?.token;
  if (!token) throw new Error(`no invitation token was mailed to ${email}`);
  const accepted = await client.request('POST', '/api/v1/business/accept-invite', {
    token,
    password,
    ...MEMBER_NAME,
  });
  expectStatus(accepted, 200, 'accept-invite');
  return login(client, email, password);
};

/** A new API key of the admin's workspace with the given scopes, as request headers. */
export const apiKeyHeaders = async (
  client: HttpClient,
  admin: SignedIn,
  scopes: string[],
): Promise<Record<string, string>> => {
  const reply = await client.request(
    'POST',
    '/api/v1/apikey/createapikey',
    { name: `test key ${scopes.join(' ')}`, environment: 'PRODUCTION', scopes },
    admin.auth,
  );
  expectStatus(reply, 201, 'createapikey');
  return { 'x-api-key': reply.body.data.key as string };
};
