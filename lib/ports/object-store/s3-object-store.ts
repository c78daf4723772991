import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { TRANSIENT_TAG, type ObjectStore } from './object-store.ts';

/** The object-store port over S3. The bucket encrypts at rest (SSE-S3) by default; nothing to ask per call. */
export const createS3ObjectStore = (client: S3Client, bucketName: () => string): ObjectStore => ({
  async put(key, body, options = {}) {
    await client.send(
      new PutObjectCommand({
        Bucket: bucketName(),
        Key: key,
        Body: body,
        ContentType: 'application/json; charset=utf-8',
        ...(options.transient && { Tagging: `${TRANSIENT_TAG.key}=${TRANSIENT_TAG.value}` }),
      }),
    );
  },
  async get(key) {
    const { Body } = await client.send(new GetObjectCommand({ Bucket: bucketName(), Key: key }));
    if (!Body) throw new Error(`object ${key} has no body`);
    return Body.transformToString('utf-8');
  },
});
