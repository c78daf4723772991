import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, expect } from 'vitest';
import { GENEROUS_RATE_LIMITS, startTestStack, type HttpReply, type TestClient } from '../support/local-stack.ts';
import {
  startFakeIdentityProvider,
  type FakeIdentityProvider,
  type FakeUser,
} from '../support/fake-identity-provider.ts';
import { uniqueEmail } from '../support/accounts.ts';

/** Nothing listens on port 1: a provider that is down. */
const OFFLINE_PROVIDERS = {
  'openid-offline': { kind: 'oidc', issuer: 'http://127.0.0.1:1', clientId: 'any' },
  'codehost-offline': { kind: 'oauth2-user-api', apiBaseUrl: 'http://127.0.0.1:1' },
};

/** A stack trusting a fresh fake provider (as `openid` and `codehost-a`) and two providers that are down. */
export const startOAuthStack = async (): Promise<{ client: TestClient; provider: FakeIdentityProvider }> => {
  const provider = await startFakeIdentityProvider();
  const client = await startTestStack(':memory:', GENEROUS_RATE_LIMITS, {
    oauthProviders: provider.providersConfig(OFFLINE_PROVIDERS),
  });
  afterAll(async () => {
    await client.stack.stop();
    await provider.stop();
  });
  return { client, provider };
};

let nextUserId = 917_300_000;
/** A user of the fake code host with one verified primary address, and its public numeric id as provider_uuid. */
export const codeHostUser = (email = uniqueEmail('gh')): FakeUser & { email: string; providerUuid: string } => {
  const id = (nextUserId += 1);
  return { id, email, providerUuid: String(id), emails: [{ email, verified: true, primary: true }] };
};

export const developerFields = (email = uniqueEmail('oauth-dev')) => ({
  firstName: 'Grace',
  lastName: 'Hopper',
  email,
  experienceLevel: 'SENIOR',
});

export const businessFields = (email = uniqueEmail('oauth-biz')) => ({
  businessName: 'Acme Ops',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email,
});

/** Every table item that mentions any of `needles` (an address matches in its stored and its key form). */
export const itemsAbout = async (client: TestClient, ...needles: string[]): Promise<Record<string, unknown>[]> => {
  const { table } = client.stack.ports;
  const forms = needles.flatMap((needle) => [needle.toLowerCase(), encodeURIComponent(needle.toLowerCase())]);
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await table.doc.send(new ScanCommand({ TableName: table.name, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items.filter((item) => forms.some((form) => JSON.stringify(item).toLowerCase().includes(form)));
};

/** A refused OAuth request: the status, the envelope, no tokens, and nothing at all written about the person. */
export const expectRefused = async (
  client: TestClient,
  reply: HttpReply,
  status: number,
  about: { email: string; providerUuid: string },
): Promise<void> => {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.body).toMatchObject({ success: false, errors: expect.any(Array) });
  expect(reply.text).not.toMatch(/accessToken"|refreshToken"/);
  expect(await itemsAbout(client, about.email, about.providerUuid)).toEqual([]);
};
