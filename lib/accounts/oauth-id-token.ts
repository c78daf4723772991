import { errors, jwtVerify, type JWTPayload } from 'jose';
import type { AccountScope } from '#lib/identity/scope.ts';
import { emailKey } from './account.ts';
import type { OidcProvider } from '#lib/ports/identity-provider/oauth-providers.ts';
import { proofRejected } from './oauth-proof.ts';
import type { OAuthClaim } from './schemas.ts';

/** Public-key algorithms only: a provider's published keys can never verify an HMAC, and `none` is no signature. */
const ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

/** Provider and service clocks drift a little; an hour-long token is not noticeably extended by this. */
const CLOCK_TOLERANCE_SECONDS = 30;

const problemWith = (error: InstanceType<typeof errors.JOSEError>, providerName: string): string => {
  if (error instanceof errors.JWTExpired) return 'idToken: has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return `idToken: was not issued by ${providerName}`;
    if (error.claim === 'aud') return 'idToken: was issued for another client';
    return `idToken: its ${error.claim} claim is ${error.reason === 'missing' ? 'missing' : 'not valid'}`;
  }
  if (
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JOSEAlgNotAllowed
  ) {
    return `idToken: is not signed by ${providerName}`;
  }
  return 'idToken: is not a valid ID token';
};

/** OpenID Connect Core 1.0, 3.1.3.7: with several audiences, the authorized party must be this client. */
const authorizedParty = (payload: JWTPayload, clientId: string): boolean =>
  !Array.isArray(payload.aud) || payload.aud.length < 2 || payload.azp === clientId;

/**
 * The ID token must be signed with a key the issuer publishes, name this deployment's client id as
 * audience, be unexpired, and say the provider_uuid and the verified e-mail address the request claims.
 */
export const verifyIdToken = async (
  { ports }: AccountScope,
  {
    providerName,
    provider,
    idToken,
    claim,
  }: { providerName: string; provider: OidcProvider; idToken: string; claim: OAuthClaim },
): Promise<void> => {
  const jwksUri = provider.jwksUri ?? (await ports.identityProvider.openIdConfiguration(provider.issuer)).jwks_uri;
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, ports.identityProvider.keySet(jwksUri), {
      issuer: provider.issuer,
      audience: provider.clientId,
      algorithms: ALGORITHMS,
      requiredClaims: ['exp', 'sub'],
      currentDate: ports.clock.now(),
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    }));
  } catch (error) {
    if (error instanceof errors.JOSEError) throw proofRejected(problemWith(error, providerName));
    throw error;
  }
  if (!authorizedParty(payload, provider.clientId)) throw proofRejected('idToken: was issued for another client');
  if (payload.sub !== claim.provider_uuid) throw proofRejected('idToken: its subject is not provider_uuid');
  if (typeof payload.email !== 'string' || emailKey(payload.email) !== emailKey(claim.email)) {
    throw proofRejected('idToken: its email is not the email of the request');
  }
  if (payload.email_verified !== true) throw proofRejected(`idToken: ${providerName} has not verified its email`);
};
