import { expect } from 'vitest';
import type { SignedIn } from '../support/accounts.ts';
import type { FakeIntegrationProviders } from '../support/fake-integration-providers.ts';
import type { HttpClient } from '../support/local-stack.ts';

export const V1 = '/api/v1';

/** The route keys of the OAuth providers: where connect and the callback are. */
export const OAUTH_ROUTES = {
  chat: { connect: '/integrations/chat/connect', callback: '/integrations/chat/oauth/callback' },
  'codehost-a': {
    connect: '/integrations/codehost-a/connect',
    callback: '/integrations/codehost-a/callbacks/codehost-a',
  },
  'codehost-b': { connect: '/integrations/codehost-b/connect', callback: '/integrations/codehost-b/callback' },
  videomeet: { connect: '/integrations/videomeet/connect', callback: '/integrations/videomeet/oauth/callback' },
} as const;
export type OAuthKind = keyof typeof OAUTH_ROUTES;

/** Starts a connection and answers the state the authorization URL carries. */
export const startConnect = async (client: HttpClient, who: SignedIn, kind: OAuthKind): Promise<string> => {
  const reply = await client.request('POST', `${V1}${OAUTH_ROUTES[kind].connect}`, undefined, who.auth);
  expect(reply.status, reply.text).toBe(200);
  const state = new URL(reply.body.data.authUrl).searchParams.get('state');
  if (!state) throw new Error('no state in the authorization URL');
  return state;
};

export const callback = (client: HttpClient, who: SignedIn, kind: OAuthKind, state: string, code = 'a-good-code') =>
  client.request(
    'GET',
    `${V1}${OAUTH_ROUTES[kind].callback}?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`,
    undefined,
    who.auth,
  );

/** Connect and callback, as a person approving at the provider would. */
export const connect = async (client: HttpClient, who: SignedIn, kind: OAuthKind): Promise<void> => {
  const reply = await callback(client, who, kind, await startConnect(client, who, kind));
  expect(reply.status, reply.text).toBe(200);
};

export const registerChatWebhook = async (
  client: HttpClient,
  who: SignedIn,
  fakes: FakeIntegrationProviders,
  name: string,
): Promise<void> => {
  const reply = await client.request(
    'POST',
    `${V1}/integrations/chat/webhook`,
    { webhookUrl: fakes.webhookUrl(name), channel: '#incidents' },
    who.auth,
  );
  expect(reply.status, reply.text).toBe(201);
};
