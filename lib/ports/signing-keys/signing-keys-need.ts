import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ENV, requiredEnv } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { createSecretsManagerSigningKeys } from './secrets-manager-signing-keys.ts';

/** The keys that sign and verify access tokens: every group with a route that takes a Bearer token. */
export const signingKeys: PortNeed = {
  binding: { kind: 'signingKeys' },
  build: {
    signingKeys: (env) =>
      createSecretsManagerSigningKeys(new SecretsManagerClient({}), () => requiredEnv(env, ENV.jwtSecretArn)),
  },
};
