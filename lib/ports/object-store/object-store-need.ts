import { S3Client } from '@aws-sdk/client-s3';
import { ENV, requiredEnv } from '../env.ts';
import type { ObjectAccess, PortNeed } from '../need.ts';
import { createS3ObjectStore } from './s3-object-store.ts';

/** The payload bucket, for bodies too large for an item or a message. */
export const payloadObjects = (access: ObjectAccess): PortNeed => ({
  binding: { kind: 'objects', access },
  build: { objects: (env) => createS3ObjectStore(new S3Client({}), () => requiredEnv(env, ENV.payloadBucket)) },
});
