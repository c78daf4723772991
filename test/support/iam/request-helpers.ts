import type { IngestionSender } from '#lib/ingestion/senders/index.ts';
import { KEY_SCOPES } from '#lib/identity/caller.ts';
import { uniqueEmail, type SignedIn } from '../accounts.ts';
import type { FakeIdentityProvider } from '../fake-identity-provider.ts';
import type { FakeIntegrationProviders } from '../fake-integration-providers.ts';
import type { HttpReply, TestClient } from '../local-stack.ts';
import { allFixtureFiles, loadFixture } from '../../ingestion/support.ts';
import { postRaw } from '../../ingestion-routes/support.ts';
import type { FakeNetwork } from '../fake-network.ts';
import { startSnsStandIn } from '../sns-stand-in.ts';

/** What the representative requests share: a workspace, its ADMIN, an API key with every scope. */
export interface RequestContext {
  client: TestClient;
  provider: FakeIdentityProvider;
  integrations: FakeIntegrationProviders;
  admin: SignedIn;
  keyHeaders: Record<string, string>;
  /** Ids one request creates and a later one uses. */
  ids: Record<string, string>;
}

/** A route's representative request(s); each reply must be a success. */
export type RouteRequests = (context: RequestContext) => Promise<HttpReply | HttpReply[]>;

export const V1 = '/api/v1';
export const PASSWORD = 'correct horse battery staple';

export const expectOk = (reply: HttpReply, step: string): HttpReply => {
  if (reply.status >= 300) throw new Error(`${step}: ${reply.status} ${reply.text}`);
  return reply;
};

/** POST and keep `data.id` (or `data[field]`) under `name`. */
export const creating = async (
  { client, admin, ids }: RequestContext,
  name: string,
  path: string,
  body: unknown,
  field = 'id',
): Promise<HttpReply> => {
  const reply = expectOk(await client.request('POST', `${V1}${path}`, body, admin.auth), `create ${name}`);
  ids[name] = reply.body.data[field];
  return reply;
};

/** A request whose path is built from the ids kept so far, sent as the ADMIN or with the key. */
export const withIds =
  (method: string, path: (ids: Record<string, string>) => string, body?: unknown, by: 'admin' | 'key' = 'admin') =>
  ({ client, admin, keyHeaders, ids }: RequestContext) =>
    client.request(method, `${V1}${path(ids)}`, body, by === 'admin' ? admin.auth : keyHeaders);
export const byAdmin = (method: string, path: string, body?: unknown) => withIds(method, () => path, body);

/** `X-API-Key` with a new key of the admin's workspace that has every scope. */
export const keyWithEveryScope = async (client: TestClient, signedIn: SignedIn): Promise<Record<string, string>> => {
  const body = { name: 'every scope', environment: 'PRODUCTION', scopes: KEY_SCOPES };
  const reply = expectOk(
    await client.request('POST', `${V1}/apikey/createapikey`, body, signedIn.auth),
    'createapikey',
  );
  return { 'x-api-key': reply.body.data.key };
};

/**
 * A key never used before: only its first request refreshes `lastUsedAt`, the one write a read-only
 * function makes outside the limiter's windows.
 */
export const byFreshKey =
  (path: string) =>
  async ({ client, admin: signedIn }: RequestContext): Promise<HttpReply> =>
    client.request('GET', `${V1}${path}`, undefined, await keyWithEveryScope(client, signedIn));
export const byKey = (path: string) => withIds('GET', () => path, undefined, 'key');

export const registerDeveloper = (client: TestClient, email: string): Promise<HttpReply> =>
  client.request('POST', `${V1}/auth/dev/register`, {
    firstName: 'Grace',
    lastName: 'Hopper',
    email,
    experienceLevel: 'SENIOR',
    password: PASSWORD,
  });

export const unverifiedDeveloper = async ({ client }: RequestContext): Promise<string> => {
  const email = uniqueEmail('dev');
  expectOk(await registerDeveloper(client, email), 'register a developer');
  return email;
};

export const oauthPerson = async ({ provider }: RequestContext) => {
  const email = uniqueEmail('oidc');
  const sub = `sub-${email}`;
  return { email, provider_uuid: sub, oAuthProvider: 'openid', idToken: await provider.idToken({ sub, email }) };
};

export const invitation = async ({ client, admin }: RequestContext): Promise<string> => {
  const email = uniqueEmail('invitee');
  const body = { email, role: 'ENGINEER', accessPermissions: [] };
  expectOk(await client.request('POST', `${V1}/business/send-invite`, body, admin.auth), 'send-invite');
  const mail = await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`);
  return (mail.body.data as { token?: string }[]).find((message) => message.token)?.token as string;
};

/** Every payload file of a sender's fixtures, as the sender posts it. */
export const fixturesOf =
  (sender: IngestionSender) =>
  async ({ client, keyHeaders }: RequestContext): Promise<HttpReply[]> => {
    const replies: HttpReply[] = [];
    for (const { file } of allFixtureFiles().filter((fixture) => fixture.sender === sender)) {
      const fixture = loadFixture(sender, file);
      replies.push(await postRaw(client, sender, fixture.raw, fixture.headers, { headers: keyHeaders }));
    }
    return replies;
  };

/**
 * The SNS subscription's fixtures as SNS posts them (`text/plain`, the key in the URL), each signed by an SNS
 * stand-in the stack's fake network names for the time of the requests: the confirmation, then the alarm's states.
 */
export const snsFixtures = async ({ client, keyHeaders }: RequestContext): Promise<HttpReply[]> => {
  const sns = await startSnsStandIn();
  const network = client.stack.ports.network as FakeNetwork;
  network.snsStandIn = sns.origin;
  const replies: HttpReply[] = [];
  try {
    for (const file of ['subscription-confirmation.json', 'alarm-notification.json', 'ok-notification.json']) {
      const message = sns.signed(JSON.parse(loadFixture('cloudwatch', file).raw));
      const path = `${V1}/ingestion/cloudwatch?apiKey=${encodeURIComponent(keyHeaders['x-api-key'] ?? '')}`;
      replies.push(
        await client.request('POST', path, JSON.stringify(message), { 'content-type': 'text/plain; charset=UTF-8' }),
      );
    }
  } finally {
    delete network.snsStandIn;
    await sns.close();
  }
  return replies;
};

/**
 * An alert group over the events stored while the sender waits, one of them larger than a queue message:
 * the events go to the ingestion queue, that one as an object, and the ingestion worker stores them.
 */
export const queuedAlertGroup = ({ client, keyHeaders }: RequestContext): Promise<HttpReply> => {
  const alerts = Array.from({ length: 101 }, (_, index) => ({
    status: 'firing',
    labels: { alertname: `queued-${index}`, severity: 'info' },
    annotations: { summary: index === 0 ? 'x'.repeat(80 * 1024) : `alert ${index}` },
    startsAt: '2030-01-01T00:00:00Z',
    fingerprint: `queued${index}`,
  }));
  const body = { version: '4', receiver: 'ops', status: 'firing', groupKey: '{}:{}', alerts };
  return client.request('POST', `${V1}/ingestion/metrics-alerts`, body, keyHeaders);
};
