import type { JWTVerifyGetKey } from 'jose';

/** What an OpenID provider's discovery document says that sign-in needs. */
export interface OpenIdConfiguration {
  issuer: string;
  jwks_uri: string;
}

interface ProviderReply {
  status: number;
  body: unknown;
}

/**
 * The provider could not answer: unreachable, too slow, a 5xx or 429, or a document that is not what
 * the protocol promises. Sign-in then fails with 503, since nothing is wrong with the caller's proof.
 */
export class ProviderUnavailableError extends Error {}

/**
 * The HTTP calls that verify an OAuth identity with its provider. Every call has a short timeout and
 * rejects with ProviderUnavailableError when the provider is down.
 */
export interface IdentityProviderClient {
  /** `{issuer}/.well-known/openid-configuration`, whose `issuer` must be the one asked for; cached. */
  openIdConfiguration(issuer: string): Promise<OpenIdConfiguration>;
  /** The key set published at `jwksUri`, for jose's `jwtVerify`; cached, and fetched again for an unknown key id. */
  keySet(jwksUri: string): JWTVerifyGetKey;
  /** GET a JSON resource of the provider's API as the owner of `accessToken`; 2xx to 4xx (but 429) resolve. */
  getAsUser(url: string, accessToken: string): Promise<ProviderReply>;
}
