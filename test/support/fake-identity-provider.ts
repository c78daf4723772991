import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';

const FAKE_CLIENT_ID = 'incident-service-test';

export interface FakeUser {
  id: number;
  emails: { email: string; verified: boolean; primary: boolean }[];
}

export interface IdTokenOptions {
  sub: string;
  email: string;
  email_verified?: boolean;
  /** Seconds from now; negative for a token that has already expired. */
  expiresIn?: number;
  aud?: string | string[];
  iss?: string;
  azp?: string;
  /** Sign with a key the provider never published, under the provider's own key id or another. */
  signedBy?: 'provider' | 'stranger-same-kid' | 'stranger';
}

/** How the provider misbehaves: answers 500, never answers, or behaves. */
type FakeFault = 'error' | 'hang' | undefined;

export interface FakeIdentityProvider {
  url: string;
  /** OAUTH_PROVIDERS for a stack that trusts this provider: `openid` by ID token, `codehost-a` by its user API. */
  providersConfig(extra?: Record<string, unknown>): string;
  idToken(options: IdTokenOptions): Promise<string>;
  /** An access token for the user API, owned by `user`. */
  accessToken(user: FakeUser): string;
  /** Requests seen so far, as `METHOD path`. */
  requests: string[];
  fault(fault: FakeFault): void;
  stop(): Promise<void>;
}

const KID = 'fake-key-1';

const json = (response: ServerResponse, status: number, body: unknown): void => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

/**
 * An OpenID provider and a code-host-A-like user API on a plain node:http server with its own signing
 * keys: discovery, JWKS, `GET /api/user` and `GET /api/user/emails`, and ID tokens minted at will,
 * valid or broken in each way a verifier must notice.
 */
export const startFakeIdentityProvider = async (): Promise<FakeIdentityProvider> => {
  const provider = await generateKeyPair('RS256');
  const stranger = await generateKeyPair('RS256');
  const publicJwk = { ...(await exportJWK(provider.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  const tokens = new Map<string, FakeUser>();
  const requests: string[] = [];
  const hanging = new Set<ServerResponse>();
  let currentFault: FakeFault;
  let url = '';

  const userOf = (request: IncomingMessage): FakeUser | undefined => {
    const match = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
    return match ? tokens.get(match[1]!) : undefined;
  };

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', url).pathname;
    requests.push(`${request.method} ${path}`);
    if (currentFault === 'hang') {
      hanging.add(response);
      return;
    }
    if (currentFault === 'error') return json(response, 500, { message: 'Server Error' });
    if (path === '/.well-known/openid-configuration') {
      return json(response, 200, {
        issuer: url,
        jwks_uri: `${url}/jwks`,
        id_token_signing_alg_values_supported: ['RS256'],
      });
    }
    if (path === '/jwks') return json(response, 200, { keys: [publicJwk] });
    if (path === '/api/user' || path === '/api/user/emails') {
      const user = userOf(request);
      if (!user) return json(response, 401, { message: 'Bad credentials' });
      return json(response, 200, path === '/api/user' ? { id: user.id, login: `user${user.id}` } : user.emails);
    }
    return json(response, 404, { message: 'Not Found' });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const signingKey = (signedBy: IdTokenOptions['signedBy']): { key: CryptoKey; kid: string } => {
    if (signedBy === 'stranger-same-kid') return { key: stranger.privateKey, kid: KID };
    if (signedBy === 'stranger') return { key: stranger.privateKey, kid: 'stranger-key' };
    return { key: provider.privateKey, kid: KID };
  };

  return {
    url,
    requests,
    providersConfig: (extra = {}) =>
      JSON.stringify({
        openid: { kind: 'oidc', issuer: url, clientId: FAKE_CLIENT_ID },
        'codehost-a': { kind: 'oauth2-user-api', apiBaseUrl: `${url}/api` },
        ...extra,
      }),
    async idToken({
      sub,
      email,
      email_verified = true,
      expiresIn = 3600,
      aud = FAKE_CLIENT_ID,
      iss = url,
      azp,
      signedBy,
    }) {
      const { key, kid } = signingKey(signedBy);
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ email, email_verified, ...(azp && { azp }) })
        .setProtectedHeader({ alg: 'RS256', kid })
        .setIssuer(iss)
        .setAudience(aud)
        .setSubject(sub)
        .setIssuedAt(now - 60)
        .setExpirationTime(now + expiresIn)
        .sign(key);
    },
    accessToken(user) {
      const token = `fake_${randomBytes(16).toString('hex')}`;
      tokens.set(token, user);
      return token;
    },
    fault(fault) {
      currentFault = fault;
      if (!fault) for (const response of hanging) response.destroy();
    },
    async stop() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
