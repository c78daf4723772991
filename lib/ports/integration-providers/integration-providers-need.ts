import { ENV, requiredEnv } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { newAwsClient } from '../aws-client.ts';

/** The OAuth applications of the integrations (a Secrets Manager secret) and the API's own URL. */
export const integrationProviders: PortNeed = {
  binding: { kind: 'integrationProviders' },
  build: {
    integrations: (env) => {
      const secret = onFirstUse(async () => {
        const [{ SecretsManagerClient }, { createSecretsManagerProviders }] = await Promise.all([
          import('@aws-sdk/client-secrets-manager'),
          import('./secrets-manager-providers.ts'),
        ]);
        return createSecretsManagerProviders(newAwsClient(SecretsManagerClient, {}), () =>
          requiredEnv(env, ENV.integrationProvidersSecretArn),
        );
      });
      return {
        providers: async () => (await secret())(),
        get apiUrl() {
          return requiredEnv(env, ENV.apiUrl).replace(/\/+$/, '');
        },
      };
    },
  },
};
