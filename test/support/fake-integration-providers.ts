import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const PROVIDERS = ['chat', 'codehost-a', 'codehost-b', 'videomeet'] as const;
type Provider = (typeof PROVIDERS)[number];

interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

export interface FakeIntegrationProviders {
  url: string;
  /** INTEGRATION_PROVIDERS for a stack that uses these fakes. */
  providersConfig(): string;
  /** Every request, in order. */
  requests: ReceivedRequest[];
  /** Messages the chat webhook `name` (`<url>/hooks/<name>`) accepted. */
  chatMessages(name: string): any[];
  webhookUrl(name: string): string;
  /** The next `count` posts to the webhook `name` answer 500. */
  failWebhook(name: string, count: number): void;
  /** Requests whose path starts with `prefix` get no answer from now on: a receiver's outage. */
  hang(prefix: string): void;
  /** Lifetime of the access tokens issued from now on, in seconds. */
  setTokenLifetime(seconds: number): void;
  /** Makes every access token issued so far unusable, as a revocation at the provider would. */
  revokeAccessTokens(): void;
  /** The access tokens issued so far. */
  issuedAccessTokens(): string[];
  stop(): Promise<void>;
}

const json = (response: ServerResponse, status: number, body: unknown): void => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

/**
 * OAuth 2.0 providers (chat, code hosts A and B, the video tool) and chat webhook receivers on one
 * node:http server: token endpoints with codes, refresh tokens and expiry, the code hosts' repository,
 * project and hook APIs, the video tool's meetings, and `/hooks/<name>` recording what it is posted.
 * A code `refuse-me` is refused with `invalid_grant`; repository `acme/missing` and project `404` do not exist.
 */
export const startFakeIntegrationProviders = async (): Promise<FakeIntegrationProviders> => {
  const requests: ReceivedRequest[] = [];
  const accessTokens = new Set<string>();
  const refreshTokens = new Set<string>();
  const webhookFailures = new Map<string, number>();
  const hung: string[] = [];
  const delivered = new Map<string, any[]>();
  let lifetime = 3600;
  let url = '';

  const issue = () => {
    const accessToken = `at_${randomBytes(12).toString('hex')}`;
    const refreshToken = `rt_${randomBytes(12).toString('hex')}`;
    accessTokens.add(accessToken);
    refreshTokens.add(refreshToken);
    return { access_token: accessToken, refresh_token: refreshToken, token_type: 'bearer', expires_in: lifetime };
  };

  const token = (form: URLSearchParams, response: ServerResponse) => {
    if (form.get('client_secret') !== 'fake-secret') return json(response, 401, { error: 'invalid_client' });
    if (form.get('grant_type') === 'authorization_code') {
      if (form.get('code') === 'refuse-me' || !form.get('redirect_uri')) {
        return json(response, 400, { error: 'invalid_grant', error_description: 'The code is not valid' });
      }
      return json(response, 200, issue());
    }
    if (form.get('grant_type') === 'refresh_token' && refreshTokens.delete(form.get('refresh_token') ?? '')) {
      return json(response, 200, issue());
    }
    return json(response, 400, { error: 'invalid_grant', error_description: 'The refresh token is not valid' });
  };

  const api = (provider: Provider, method: string, path: string, body: any, response: ServerResponse) => {
    if (provider === 'codehost-a' && method === 'GET' && path === '/user/repos') {
      return json(response, 200, [
        { id: 101, full_name: 'acme/api', default_branch: 'main', private: true },
        { id: 102, full_name: 'acme/web', default_branch: 'trunk', private: false },
      ]);
    }
    const repoHooks = /^\/repos\/([^/]+)\/([^/]+)\/hooks$/.exec(path);
    if (provider === 'codehost-a' && method === 'POST' && repoHooks) {
      if (`${repoHooks[1]}/${repoHooks[2]}` === 'acme/missing') return json(response, 404, { message: 'Not Found' });
      return json(response, 201, { id: 9001, events: body.events, config: { url: body.config.url } });
    }
    if (provider === 'codehost-b' && method === 'GET' && path === '/projects') {
      return json(response, 200, [{ id: 7, name: 'API', path_with_namespace: 'acme/api', default_branch: 'main' }]);
    }
    const projectHooks = /^\/projects\/([^/]+)\/hooks$/.exec(path);
    if (provider === 'codehost-b' && method === 'POST' && projectHooks) {
      if (projectHooks[1] === '404') return json(response, 404, { message: '404 Project Not Found' });
      return json(response, 201, { id: 77, url: body.url });
    }
    if (provider === 'videomeet' && method === 'POST' && path === '/meetings') {
      return json(response, 201, { id: 5, join_url: `${url}/videomeet/j/${randomBytes(4).toString('hex')}` });
    }
    return json(response, 404, { message: 'Not Found' });
  };

  const server = createServer((request, response) => {
    void (async () => {
      const { pathname } = new URL(request.url ?? '/', url);
      const text = await readBody(request);
      const isForm = (request.headers['content-type'] ?? '').includes('x-www-form-urlencoded');
      let body: any = text;
      if (isForm) body = Object.fromEntries(new URLSearchParams(text));
      else if (text) body = JSON.parse(text);
      requests.push({ method: request.method ?? 'GET', path: pathname, headers: request.headers, body });
      if (hung.some((prefix) => pathname.startsWith(prefix))) return;
      const hook = /^\/hooks\/([^/]+)$/.exec(pathname);
      if (hook && request.method === 'POST') {
        const failures = webhookFailures.get(hook[1]!) ?? 0;
        if (hook[1] === 'refuse' || failures > 0) {
          webhookFailures.set(hook[1]!, Math.max(0, failures - 1));
          return json(response, hook[1] === 'refuse' ? 404 : 500, { ok: false });
        }
        delivered.set(hook[1]!, [...(delivered.get(hook[1]!) ?? []), body]);
        return json(response, 200, { ok: true });
      }
      const [, provider, section, ...rest] = pathname.split('/');
      if (!PROVIDERS.includes(provider as Provider)) return json(response, 404, { message: 'Not Found' });
      if (section === 'oauth' && rest.join('/') === 'token' && request.method === 'POST') {
        return token(new URLSearchParams(text), response);
      }
      if (section === 'api') {
        const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
        if (!bearer || !accessTokens.has(bearer)) return json(response, 401, { message: 'Bad credentials' });
        return api(provider as Provider, request.method ?? 'GET', `/${rest.join('/')}`, body, response);
      }
      return json(response, 404, { message: 'Not Found' });
    })().catch((error: unknown) => json(response, 500, { message: String(error) }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    providersConfig: () =>
      JSON.stringify(
        Object.fromEntries(
          PROVIDERS.map((provider) => [
            provider,
            {
              clientId: `${provider}-client`,
              clientSecret: 'fake-secret',
              authorizeUrl: `${url}/${provider}/oauth/authorize`,
              tokenUrl: `${url}/${provider}/oauth/token`,
              apiBaseUrl: `${url}/${provider}/api`,
              scopes: 'read write',
            },
          ]),
        ),
      ),
    chatMessages: (name) => delivered.get(name) ?? [],
    webhookUrl: (name) => `${url}/hooks/${name}`,
    failWebhook: (name, count) => webhookFailures.set(name, count),
    hang: (prefix) => hung.push(prefix),
    setTokenLifetime: (seconds) => {
      lifetime = seconds;
    },
    revokeAccessTokens: () => accessTokens.clear(),
    issuedAccessTokens: () => [...accessTokens],
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
