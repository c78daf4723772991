import { BadRequestError, ServiceUnavailableError } from '#lib/contract/errors.ts';
import { log } from '#lib/log/logger.ts';
import { ProviderUnavailableError } from '#lib/ports/identity-provider/identity-provider.ts';
import type { AccountScope } from '#lib/identity/scope.ts';
import type { OAuthIdentity } from './account.ts';
import { verifyProviderAccessToken } from './oauth-access-token.ts';
import { verifyIdToken } from './oauth-id-token.ts';
import { proofRejected } from './oauth-proof.ts';
import { findOAuthProvider } from '#lib/ports/identity-provider/oauth-providers.ts';
import type { OAuthClaim } from './schemas.ts';

/**
 * The identity a request claims, once its provider has vouched for it; e-mail addresses and provider
 * ids are not secrets (code host A's user ids are public), so nothing is taken on the client's word.
 * Throws 400 for a provider this deployment does not know or a proof of the wrong kind for it, 401
 * for a missing proof or one that does not hold, 503 when the provider does not answer.
 */
export const verifyOAuthIdentity = async (scope: AccountScope, claim: OAuthClaim): Promise<OAuthIdentity> => {
  const { ports } = scope;
  const name = claim.oAuthProvider.trim().toLowerCase();
  const provider = findOAuthProvider(ports.oauthProviders, name);
  if (!provider)
    throw new BadRequestError('Unknown OAuth provider', [`oAuthProvider: ${claim.oAuthProvider} is not configured`]);
  if (claim.idToken === undefined && claim.accessToken === undefined) {
    const proof = provider.kind === 'oidc' ? 'idToken' : 'accessToken';
    throw proofRejected(`${proof}: is required, the proof that ${name} vouches for this identity`);
  }
  try {
    if (provider.kind === 'oidc') {
      if (!claim.idToken)
        throw new BadRequestError('Wrong proof for this provider', [`idToken: ${name} signs in with an ID token`]);
      await verifyIdToken(scope, { providerName: name, provider, idToken: claim.idToken, claim });
    } else {
      if (!claim.accessToken) {
        throw new BadRequestError('Wrong proof for this provider', [
          `accessToken: ${name} signs in with an access token`,
        ]);
      }
      await verifyProviderAccessToken(scope, { providerName: name, provider, accessToken: claim.accessToken, claim });
    }
  } catch (error) {
    if (!(error instanceof ProviderUnavailableError)) throw error;
    log.warn('OAuth provider unavailable', { provider: name, error });
    throw new ServiceUnavailableError('OAuth provider unavailable, try again later', [
      `oAuthProvider: ${name} did not answer`,
    ]);
  }
  return { provider: name, providerUuid: claim.provider_uuid };
};
