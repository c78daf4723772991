import { ServiceUnavailableError } from '#lib/contract/errors.ts';
import type { IntegrationProvider } from '#lib/ports/integration-providers/integration-providers.ts';
import type { OAuthCredentials } from './integration.ts';
import { callProvider, expectSuccess } from './provider-http.ts';

/** An access token this close to expiry is refreshed before use, so it does not lapse mid-call. */
const REFRESH_MARGIN_MS = 60_000;

const tokenReply = (body: unknown, now: Date): OAuthCredentials => {
  const {
    access_token: accessToken,
    refresh_token: refreshToken,
    expires_in: expiresIn,
  } = (body ?? {}) as Record<string, unknown>;
  if (typeof accessToken !== 'string' || accessToken === '') {
    // A success without a token is a provider broken for now, not a fault of the caller's code.
    throw new ServiceUnavailableError('The provider did not answer', [
      'provider: the token endpoint sent no access_token',
    ]);
  }
  return {
    accessToken,
    ...(typeof refreshToken === 'string' && refreshToken !== '' && { refreshToken }),
    ...(typeof expiresIn === 'number' &&
      expiresIn > 0 && { expiresAt: new Date(now.getTime() + expiresIn * 1000).toISOString() }),
  };
};

/** RFC 6749 4.1.3 and 6: a form POST with the client's credentials in the body, answered in JSON. */
const tokenRequest = async (provider: IntegrationProvider, grant: Record<string, string>, now: Date) => {
  const reply = await callProvider(provider.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      ...grant,
      client_id: provider.clientId,
      client_secret: provider.clientSecret,
    }).toString(),
  });
  return tokenReply(expectSuccess(reply), now);
};

export const exchangeCode = (provider: IntegrationProvider, code: string, redirectUri: string, now: Date) =>
  tokenRequest(provider, { grant_type: 'authorization_code', code, redirect_uri: redirectUri }, now);

/** A provider may rotate the refresh token; one it does not send back stays the one to use. */
export const refreshTokens = async (
  provider: IntegrationProvider,
  refreshToken: string,
  now: Date,
): Promise<OAuthCredentials> => {
  const refreshed = await tokenRequest(provider, { grant_type: 'refresh_token', refresh_token: refreshToken }, now);
  return { refreshToken, ...refreshed };
};

export const needsRefresh = (credentials: OAuthCredentials, now: Date): boolean =>
  credentials.expiresAt !== undefined && Date.parse(credentials.expiresAt) - REFRESH_MARGIN_MS <= now.getTime();
