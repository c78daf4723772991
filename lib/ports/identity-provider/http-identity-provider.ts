import { createRemoteJWKSet, customFetch, errors, type JWTVerifyGetKey } from 'jose';
import * as z from 'zod/mini';
import {
  ProviderUnavailableError,
  type IdentityProviderClient,
  type OpenIdConfiguration,
} from './identity-provider.ts';

/** Per call: a sign-in makes at most two in a row, well inside the function's 15 s. */
export const PROVIDER_TIMEOUT_MS = 3000;

/** Discovery documents rarely change; keys are re-read by jose itself (10 minutes, or at an unknown key id). */
const DISCOVERY_CACHE_MS = 60 * 60 * 1000;

const discoveryDocument = z.object({ issuer: z.string(), jwks_uri: z.url() });

/** jose's own failures to fetch or read a key set, as opposed to a token whose key is not in it. */
const isKeySetFailure = (error: unknown): boolean =>
  error instanceof errors.JWKSTimeout ||
  error instanceof errors.JWKSInvalid ||
  (error instanceof errors.JOSEError && error.code === errors.JOSEError.code);

/** The real HTTP calls, in AWS and locally alike: a provider is not an AWS service with a local stand-in. */
export const createHttpIdentityProviderClient = ({ timeoutMs = PROVIDER_TIMEOUT_MS } = {}): IdentityProviderClient => {
  /** Redirects are refused so that a bearer token goes only to the configured host. */
  const get = async (url: string, headers: Record<string, string>): Promise<Response> => {
    let response: Response;
    try {
      response = await fetch(url, { headers, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new ProviderUnavailableError(`GET ${url} failed: ${(error as Error).message}`, { cause: error });
    }
    if (response.status >= 500 || response.status === 429) {
      await response.body?.cancel();
      throw new ProviderUnavailableError(`GET ${url} answered ${response.status}`);
    }
    return response;
  };

  const readJson = async (url: string, response: Response): Promise<unknown> => {
    try {
      return await response.json();
    } catch (error) {
      throw new ProviderUnavailableError(`GET ${url} answered ${response.status} without JSON`, { cause: error });
    }
  };

  const discover = async (issuer: string): Promise<OpenIdConfiguration> => {
    const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const response = await get(url, { accept: 'application/json' });
    const document = discoveryDocument.safeParse(response.ok ? await readJson(url, response) : undefined);
    if (!document.success)
      throw new ProviderUnavailableError(`${url} is not an OpenID configuration (${response.status})`);
    // OpenID Connect Discovery 1.0, section 4.3: a document naming another issuer must not be used.
    if (document.data.issuer !== issuer)
      throw new ProviderUnavailableError(`${url} names issuer ${document.data.issuer}`);
    return document.data;
  };

  const configurations = new Map<string, { value: Promise<OpenIdConfiguration>; at: number }>();
  const keySets = new Map<string, JWTVerifyGetKey>();

  const remoteKeySet = (jwksUri: string): JWTVerifyGetKey => {
    const remote = createRemoteJWKSet(new URL(jwksUri), {
      // Ours fires first, inside `get`; jose's own limit only backs it up.
      timeoutDuration: timeoutMs * 2,
      [customFetch]: (url, options) => get(url, Object.fromEntries(options.headers)),
    });
    return async (header, token) => {
      try {
        return await remote(header, token);
      } catch (error) {
        if (isKeySetFailure(error)) {
          throw new ProviderUnavailableError(`key set ${jwksUri}: ${(error as Error).message}`, { cause: error });
        }
        throw error;
      }
    };
  };

  return {
    openIdConfiguration(issuer) {
      const cached = configurations.get(issuer);
      if (cached && Date.now() - cached.at < DISCOVERY_CACHE_MS) return cached.value;
      const value = discover(issuer);
      value.catch(() => configurations.delete(issuer));
      configurations.set(issuer, { value, at: Date.now() });
      return value;
    },
    keySet(jwksUri) {
      const known = keySets.get(jwksUri);
      if (known) return known;
      const keySet = remoteKeySet(jwksUri);
      keySets.set(jwksUri, keySet);
      return keySet;
    },
    async getAsUser(url, accessToken) {
      const response = await get(url, { accept: 'application/json', authorization: `Bearer ${accessToken}` });
      if (!response.ok) {
        await response.body?.cancel();
        return { status: response.status, body: undefined };
      }
      return { status: response.status, body: await readJson(url, response) };
    },
  };
};
