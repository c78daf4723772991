import { ENV } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { createHttpIdentityProviderClient } from './http-identity-provider.ts';
import { parseOAuthProviders } from './oauth-providers.ts';

/** The configured OAuth providers and the client that checks a sign-in proof with them. */
export const identityProviders: PortNeed = {
  binding: { kind: 'oauthProviders' },
  build: {
    oauthProviders: (env) => parseOAuthProviders(env[ENV.oauthProviders]),
    identityProvider: () => createHttpIdentityProviderClient(),
  },
};
