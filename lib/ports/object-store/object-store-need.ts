import { ENV, requiredEnv } from '../env.ts';
import type { ObjectAccess, PortNeed } from '../need.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { newAwsClient } from '../aws-client.ts';

/** The payload bucket, for bodies too large for an item or a message. */
export const payloadObjects = (access: ObjectAccess): PortNeed => ({
  binding: { kind: 'objects', access },
  build: {
    objects: (env) => {
      const s3 = onFirstUse(async () => {
        const [{ S3Client }, { createS3ObjectStore }] = await Promise.all([
          import('@aws-sdk/client-s3'),
          import('./s3-object-store.ts'),
        ]);
        return createS3ObjectStore(newAwsClient(S3Client, {}), () => requiredEnv(env, ENV.payloadBucket));
      });
      return {
        put: async (key, body, options) => (await s3()).put(key, body, options),
        get: async (key) => (await s3()).get(key),
      };
    },
  },
});
