import type { KeyScope } from '#lib/identity/caller.ts';
import { API, bearer, type DemoClient, type Headers } from './client.ts';

export interface Person {
  id: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  auth: Headers;
}

const DOMAIN = 'demo.example';
const PASSWORD = 'demo password, change me';

/**
 * Only the engineers who work incidents sign in: sign-ins and invitation acceptances share the `login`
 * limit of one client address (10 in 15 minutes by default), and the newcomer needs some of it.
 */
const TEAM = [
  { firstName: 'Grace', lastName: 'Hopper', role: 'ENGINEER', signIn: true },
  { firstName: 'Linus', lastName: 'Torvalds', role: 'ENGINEER', signIn: true },
  { firstName: 'Margaret', lastName: 'Hamilton', role: 'ENGINEER', signIn: false },
  { firstName: 'Barbara', lastName: 'Liskov', role: 'VIEWER', signIn: false },
] as const;

const emailOf = (firstName: string): string => `${firstName.toLowerCase()}@${DOMAIN}`;

interface Mail {
  otp?: string;
  token?: string;
}

/** The newest mail to `email` that carries `field`, from the local mailbox (it waits for the mail queue). */
const mailed = async (client: DemoClient, email: string, field: keyof Mail): Promise<string> => {
  const mail = await client.call<Mail[]>('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`);
  const value = mail.find((message) => message[field])?.[field];
  if (!value) throw new Error(`no ${field} was mailed to ${email}`);
  return value;
};

const login = async (client: DemoClient, email: string, password: string) => {
  const data = await client.call<{ accessToken: string; user: { id: string } }>('POST', `${API}/auth/login`, {
    body: { email, password },
  });
  return { id: data.user.id, auth: bearer(data.accessToken) };
};

/** Registers the business, verifies its ADMIN's address with the mailed code, and signs in. */
export const registerAdmin = async (client: DemoClient, businessName: string): Promise<Person> => {
  const person = { firstName: 'Ada', lastName: 'Lovelace', email: emailOf('Ada'), password: PASSWORD };
  await client.call('POST', `${API}/auth/business/register`, { body: { businessName, ...person } });
  const otp = await mailed(client, person.email, 'otp');
  await client.call('POST', `${API}/auth/verify_email`, { body: { email: person.email, otp, password: PASSWORD } });
  return signIn(client, person);
};

/** Someone who can sign in. */
export type Member = Pick<Person, 'email' | 'password' | 'firstName' | 'lastName'>;

/** Invites the rest of the team; each accepts with the mailed token. Returns the engineers who work incidents. */
export const inviteTeam = async (client: DemoClient, admin: Person): Promise<Member[]> => {
  const accepted = await Promise.all(
    TEAM.map(async ({ firstName, lastName, role, signIn }) => {
      const email = emailOf(firstName);
      await client.call('POST', `${API}/business/send-invite`, {
        body: { email, role, accessPermissions: [] },
        headers: admin.auth,
      });
      const token = await mailed(client, email, 'token');
      await client.call('POST', `${API}/business/accept-invite`, {
        body: { token, password: PASSWORD, firstName, lastName },
      });
      return signIn ? { email, password: PASSWORD, firstName, lastName } : undefined;
    }),
  );
  return accepted.filter((member) => member !== undefined);
};

export const signIn = async (client: DemoClient, member: Member): Promise<Person> => ({
  ...member,
  ...(await login(client, member.email, member.password)),
});

/** Member ids by e-mail. */
export const memberIds = async (client: DemoClient, admin: Person): Promise<Record<string, string>> => {
  const members = await client.call<{ id: string; email: string }[]>('GET', `${API}/business/get_members`, {
    headers: admin.auth,
  });
  return Object.fromEntries(members.map((member) => [member.email, member.id]));
};

/** A new API key of the workspace; its value is shown only in this answer. */
export const createKey = async (
  client: DemoClient,
  admin: Person,
  name: string,
  scopes: readonly KeyScope[],
): Promise<string> => {
  const data = await client.call<{ key: string }>('POST', `${API}/apikey/createapikey`, {
    body: { name, environment: 'PRODUCTION', scopes },
    headers: admin.auth,
  });
  return data.key;
};
