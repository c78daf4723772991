import type { TestClient } from '../support/local-stack.ts';
import { login, uniqueEmail, type SignedIn } from '../support/accounts.ts';

/** Invites a new person into the admin's workspace with `role`, accepts through the mailed token, and signs in. */
export const joinAs = async (client: TestClient, admin: SignedIn, role: 'ADMIN' | 'ENGINEER' | 'VIEWER'): Promise<SignedIn> => {
  const email = uniqueEmail(role.toLowerCase());
  const password = 'another long password';
  const invited = await client.request('POST', '/api/v1/business/send-invite', { email, role, accessPermissions: [] }, admin.auth);
  if (invited.status !== 201) throw new Error(`send-invite: ${invited.status} ${invited.text}`);
  const mail = await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`);
  const token = (mail.body?.data as { token?: string }[] | undefined)?.find((message) => message.token)?.token;
  if (!token) throw new Error(`no invitation token was mailed to ${email}`);
  const accepted = await client.request('POST', '/api/v1/business/accept-invite', { token, password, firstName: 'Grace', lastName: 'Hopper' });
  if (accepted.status !== 200) throw new Error(`accept-invite: ${accepted.status} ${accepted.text}`);
  return login(client, email, password);
};

/** An API key of the admin's workspace with the given scopes, as request headers. */
export const apiKeyHeaders = async (client: TestClient, admin: SignedIn, name: string, scopes: string[]): Promise<Record<string, string>> => {
  const reply = await client.request('POST', '/api/v1/apikey/createapikey', { name, environment: 'DEVELOPMENT', scopes }, admin.auth);
  if (reply.status !== 201) throw new Error(`createapikey: ${reply.status} ${reply.text}`);
  return { 'x-api-key': reply.body.data.key as string };
};
