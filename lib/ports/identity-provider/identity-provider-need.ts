import { ENV } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import type { IdentityProviderClient } from './identity-provider.ts';
import { parseOAuthProviders } from './oauth-providers.ts';

/**
 * The configured OAuth providers and the client that checks a sign-in proof with them. The client (and
 * jose with it) loads on the first OAuth sign-in, so the auth group's cold start does not carry it.
 */
export const identityProviders: PortNeed = {
  binding: { kind: 'oauthProviders' },
  build: {
    oauthProviders: (env) => parseOAuthProviders(env[ENV.oauthProviders]),
    identityProvider: (): IdentityProviderClient => {
      const client = onFirstUse(async () =>
        (await import('./http-identity-provider.ts')).createHttpIdentityProviderClient(),
      );
      return {
        openIdConfiguration: async (issuer) => (await client()).openIdConfiguration(issuer),
        keySet: (jwksUri) => async (header, token) => (await client()).keySet(jwksUri)(header, token),
        getAsUser: async (url, accessToken) => (await client()).getAsUser(url, accessToken),
      };
    },
  },
};
