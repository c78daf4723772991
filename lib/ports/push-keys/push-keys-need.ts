import { ENV, requiredEnv } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { newAwsClient } from '../aws-client.ts';

/** The VAPID keys of Web Push: the routes that hand out the public key and the worker that sends pages. */
export const pushKeys: PortNeed = {
  binding: { kind: 'pushKeys' },
  build: {
    pushKeys: (env) => {
      const keys = onFirstUse(async () => {
        const [{ SecretsManagerClient }, { createSecretsManagerPushKeys }] = await Promise.all([
          import('@aws-sdk/client-secrets-manager'),
          import('./secrets-manager-push-keys.ts'),
        ]);
        return createSecretsManagerPushKeys(newAwsClient(SecretsManagerClient, {}), () =>
          requiredEnv(env, ENV.vapidSecretArn),
        );
      });
      return { vapidKeys: async () => (await keys()).vapidKeys() };
    },
  },
};
