import { ENV, requiredEnv } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { newAwsClient } from '../aws-client.ts';

/** The keys that sign and verify access tokens: every group with a route that takes a Bearer token. */
export const signingKeys: PortNeed = {
  binding: { kind: 'signingKeys' },
  build: {
    signingKeys: (env) => {
      const secrets = onFirstUse(async () => {
        const [{ SecretsManagerClient }, { createSecretsManagerSigningKeys }] = await Promise.all([
          import('@aws-sdk/client-secrets-manager'),
          import('./secrets-manager-signing-keys.ts'),
        ]);
        return createSecretsManagerSigningKeys(newAwsClient(SecretsManagerClient, {}), () =>
          requiredEnv(env, ENV.jwtSecretArn),
        );
      });
      return {
        current: async () => (await secrets()).current(),
        find: async (kid) => (await secrets()).find(kid),
      };
    },
  },
};
