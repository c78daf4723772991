import * as z from 'zod/mini';
import '#lib/contract/zod-locale.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Plain http only on this machine (a local or test provider): tokens and keys must not travel in clear. */
const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .check(
    z.refine(
      (url) => url.startsWith('https:') || LOOPBACK.has(new URL(url).hostname),
      'must be https (http only for localhost)',
    ),
  );

/** Signs people in with OpenID Connect ID tokens, verified against the keys the issuer publishes. */
const oidcProvider = z.strictObject({
  kind: z.literal('oidc'),
  /** Exactly as the provider writes it in `iss` (a trailing slash matters); discovery is at `{issuer}/.well-known/openid-configuration`. */
  issuer: httpUrl,
  /** This deployment's client id at the provider: the audience its ID tokens must name. */
  clientId: z.string().check(z.trim(), z.minLength(1, 'is required')),
  /** Where the keys are when the provider publishes no discovery document. */
  jwksUri: z.optional(httpUrl),
});

/** A provider without OpenID Connect (code host A): an access token is checked by asking its user API. */
const userApiProvider = z.strictObject({
  kind: z.literal('oauth2-user-api'),
  /** `GET {apiBaseUrl}/user` and `GET {apiBaseUrl}/user/emails` answer for the token's owner. */
  apiBaseUrl: z.pipe(
    httpUrl,
    z.transform((url) => url.replace(/\/+$/, '')),
  ),
});

const providerName = z
  .string()
  .check(z.regex(/^[a-z0-9][a-z0-9-]{0,49}$/, 'must be lowercase letters, digits and dashes'));

const providersSchema = z.record(providerName, z.discriminatedUnion('kind', [oidcProvider, userApiProvider]));

export type OidcProvider = z.output<typeof oidcProvider>;
export type UserApiProvider = z.output<typeof userApiProvider>;
export type OAuthProvider = OidcProvider | UserApiProvider;
/** The providers this deployment accepts, by the name clients send as `oAuthProvider`. */
export type OAuthProviders = Readonly<Record<string, OAuthProvider>>;

/**
 * `OAUTH_PROVIDERS` (locally) or the `oauthProviders` context (in AWS), as JSON:
 * `{"<name>": {"kind": "oidc", "issuer": ..., "clientId": ...} | {"kind": "oauth2-user-api", "apiBaseUrl": ...}}`.
 * Unset means no provider, so every OAuth sign-in is refused until one is configured.
 */
export const parseOAuthProviders = (text: string | undefined): OAuthProviders => {
  if (!text?.trim()) return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('OAuth providers must be a JSON object');
  }
  const parsed = providersSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      // A bad name is reported as a bad record key; its own message says what a name must be.
      const message = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
      return `${issue.path.map(String).join('.') || 'providers'}: ${message}`;
    });
    throw new Error(`OAuth providers: ${problems.join('; ')}`);
  }
  return parsed.data;
};

/** Names compare without case, as the stored OAuth claims do. */
export const findOAuthProvider = (providers: OAuthProviders, name: string): OAuthProvider | undefined =>
  Object.hasOwn(providers, name.trim().toLowerCase()) ? providers[name.trim().toLowerCase()] : undefined;
