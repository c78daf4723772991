import { onFirstUse } from '#lib/loading/on-first-use.ts';
import type { JWTPayload } from 'jose';
import type { SigningKey, SigningKeys } from '#lib/ports/signing-keys/signing-keys.ts';
import { UnauthorizedError } from '#lib/contract/errors.ts';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;

const ISSUER = 'incident-service';
const ALGORITHM = 'HS256';

/**
 * `sessionVersion` is the account's version when the token was issued; a credential change raises the
 * account's, which ends every token issued before it (access and refresh) on its next use.
 */
export interface AccessClaims {
  accountId: string;
  email: string;
  sessionVersion: number;
  /** The login (refresh family) the token was issued to, so revoking the login ends it; absent in older tokens. */
  familyId?: string;
}

export interface RefreshClaims {
  accountId: string;
  familyId: string;
  generation: number;
  sessionVersion: number;
}

type TokenUse = 'access' | 'refresh';

/**
 * jose is loaded by the first token signed or verified, not at cold start: a route group's cold start may
 * hold little more than a bare document-client handler (docs/performance.md, "Bundles and cold imports"),
 * and requests without a Bearer token never need it. Through token-signing.ts rather than jose's index, so
 * a bundle whose other chunks import other parts of jose (auth's OAuth identity-provider client) shares only
 * what both use.
 */
const loadJose = onFirstUse(() => import('./token-signing.ts'));

/**
 * Signs with the given key at the given second. HS256 over the same header and claims is deterministic,
 * which is what lets a refresh repeated within the grace window receive the very pair the first one got.
 */
const sign = async (
  key: SigningKey,
  use: TokenUse,
  subject: string,
  claims: JWTPayload,
  ttlSeconds: number,
  now: Date,
): Promise<string> => {
  const { SignJWT } = await loadJose();
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({ ...claims, use })
    .setProtectedHeader({ alg: ALGORITHM, kid: key.kid, typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(ISSUER)
    .setSubject(subject)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttlSeconds)
    .sign(key.secret);
};

/**
 * Verifies signature, algorithm (HS256 only: `alg: none` and others are refused), issuer, audience,
 * expiry and the token's use, so a refresh token is never accepted as an access token or the reverse.
 */
const verify = async (keys: SigningKeys, token: string, use: TokenUse, now: Date): Promise<JWTPayload> => {
  const { errors: joseErrors, jwtVerify } = await loadJose();
  try {
    const { payload } = await jwtVerify(
      token,
      async (header) => {
        const key = header.kid ? await keys.find(header.kid) : undefined;
        if (!key) throw new joseErrors.JWSSignatureVerificationFailed('unknown key id');
        return key.secret;
      },
      { algorithms: [ALGORITHM], issuer: ISSUER, audience: ISSUER, currentDate: now, requiredClaims: ['sub', 'exp'] },
    );
    if (payload.use !== use) throw new UnauthorizedError(`Not an ${use} token`);
    return payload;
  } catch (error) {
    if (error instanceof UnauthorizedError) throw error;
    if (error instanceof joseErrors.JWTExpired) throw new UnauthorizedError('Token expired');
    if (error instanceof joseErrors.JOSEError) throw new UnauthorizedError('Invalid token');
    throw error;
  }
};

/** Tokens issued before session versions existed carry none; they count as version 0, as such accounts do. */
const sessionVersionOf = (payload: JWTPayload): number => {
  if (payload.sv === undefined) return 0;
  if (typeof payload.sv !== 'number') throw new UnauthorizedError('Invalid token');
  return payload.sv;
};

export const issueAccessToken = (key: SigningKey, claims: AccessClaims, now: Date): Promise<string> =>
  sign(
    key,
    'access',
    claims.accountId,
    { email: claims.email, sv: claims.sessionVersion, ...(claims.familyId && { fam: claims.familyId }) },
    ACCESS_TOKEN_TTL_SECONDS,
    now,
  );

export const issueRefreshToken = (key: SigningKey, claims: RefreshClaims, now: Date): Promise<string> =>
  sign(
    key,
    'refresh',
    claims.accountId,
    { fam: claims.familyId, gen: claims.generation, sv: claims.sessionVersion },
    REFRESH_TOKEN_TTL_SECONDS,
    now,
  );

export const verifyAccessToken = async (keys: SigningKeys, token: string, now: Date): Promise<AccessClaims> => {
  const payload = await verify(keys, token, 'access', now);
  if (typeof payload.email !== 'string') throw new UnauthorizedError('Invalid token');
  if (payload.fam !== undefined && typeof payload.fam !== 'string') throw new UnauthorizedError('Invalid token');
  return {
    accountId: payload.sub as string,
    email: payload.email,
    sessionVersion: sessionVersionOf(payload),
    ...(payload.fam !== undefined && { familyId: payload.fam }),
  };
};

export const verifyRefreshToken = async (keys: SigningKeys, token: string, now: Date): Promise<RefreshClaims> => {
  const payload = await verify(keys, token, 'refresh', now);
  if (typeof payload.fam !== 'string' || typeof payload.gen !== 'number') throw new UnauthorizedError('Invalid token');
  return {
    accountId: payload.sub as string,
    familyId: payload.fam,
    generation: payload.gen,
    sessionVersion: sessionVersionOf(payload),
  };
};
