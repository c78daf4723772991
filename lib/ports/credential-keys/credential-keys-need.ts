import { ENV, requiredEnv } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { newAwsClient } from '../aws-client.ts';

/** Sealing and opening stored third-party tokens: the stack's KMS key, to encrypt and decrypt data keys. */
export const credentialKeys: PortNeed = {
  binding: { kind: 'credentialKeys' },
  build: {
    credentialKeys: (env) => {
      const kms = onFirstUse(async () => {
        const [{ KMSClient }, { createKmsCredentialKeys }] = await Promise.all([
          import('@aws-sdk/client-kms'),
          import('./kms-credential-keys.ts'),
        ]);
        return createKmsCredentialKeys(newAwsClient(KMSClient, {}), () => requiredEnv(env, ENV.credentialsKeyId));
      });
      return {
        newDataKey: async (context) => (await kms()).newDataKey(context),
        unwrap: async (wrapped, context) => (await kms()).unwrap(wrapped, context),
      };
    },
  },
};
