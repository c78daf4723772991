import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { openLocalObjectStore } from '#infra/local/local-object-store.ts';
import { objectKey } from '#lib/ports/object-store/object-store.ts';
import { createS3ObjectStore } from '#lib/ports/object-store/s3-object-store.ts';
import { MAX_MESSAGE_BYTES } from '#lib/ports/queue/queue.ts';
import { createSqsQueue } from '#lib/ports/queue/sqs-queue.ts';

const s3 = mockClient(S3Client);
const sqs = mockClient(SQSClient);

afterEach(() => {
  s3.reset();
  sqs.reset();
});

describe('the S3 object store', () => {
  const store = createS3ObjectStore(new S3Client({ region: 'eu-west-1' }), () => 'payloads-bucket');

  it('puts JSON text under the key, tagging transient objects for the lifecycle rule', async () => {
    s3.on(PutObjectCommand).resolves({});
    await store.put('ws-1/signals/01J/metadata.json', '{"a":1}');
    await store.put('ws-1/queued-events/01J.json', '{"b":2}', { transient: true });
    expect(s3.commandCalls(PutObjectCommand).map((call) => call.args[0].input)).toEqual([
      {
        Bucket: 'payloads-bucket',
        Key: 'ws-1/signals/01J/metadata.json',
        Body: '{"a":1}',
        ContentType: 'application/json; charset=utf-8',
      },
      {
        Bucket: 'payloads-bucket',
        Key: 'ws-1/queued-events/01J.json',
        Body: '{"b":2}',
        ContentType: 'application/json; charset=utf-8',
        Tagging: 'retention=transient',
      },
    ]);
  });

  it('gets the text of an object, and fails when S3 does', async () => {
    s3.on(GetObjectCommand, { Bucket: 'payloads-bucket', Key: 'ws-1/a.json' }).resolves({
      Body: { transformToString: async () => '{"whole":true}' } as never,
    });
    await expect(store.get('ws-1/a.json')).resolves.toBe('{"whole":true}');
    s3.on(GetObjectCommand, { Key: 'ws-1/gone.json' }).rejects(
      Object.assign(new Error('Access Denied'), { name: 'AccessDenied' }),
    );
    await expect(store.get('ws-1/gone.json')).rejects.toThrow('Access Denied');
  });
});

describe('the local object store', () => {
  it('keeps objects in memory with DATA_DIR=:memory:, and refuses a key it never wrote', async () => {
    const store = openLocalObjectStore(undefined);
    await store.put('ws-1/x.json', 'x');
    await expect(store.get('ws-1/x.json')).resolves.toBe('x');
    await expect(store.get('ws-1/y.json')).rejects.toThrow();
  });
});

describe('object keys', () => {
  it('start with the workspace id and hold plain names only', () => {
    expect(objectKey('ws-1', 'signals', '01J', 'metadata.json')).toBe('ws-1/signals/01J/metadata.json');
    for (const bad of ['..', 'a/b', '', 'a b']) expect(() => objectKey('ws-1', bad)).toThrow();
  });
});

describe('the SQS queue adapter', () => {
  const queue = createSqsQueue(new SQSClient({ region: 'eu-west-1' }), () => 'https://sqs/queue');

  it('batches by ten messages and by SQS size limit, and refuses a single message over it', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const large = { blob: 'x'.repeat(100 * 1024) };
    await queue.send('ingestion', [
      ...Array.from({ length: 12 }, (_unused, index) => ({ index })),
      large,
      large,
      large,
    ]);
    const batches = sqs.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input.Entries ?? []);
    expect(batches.map((entries) => entries.length)).toEqual([10, 4, 1]);
    for (const entries of batches) {
      expect(entries.reduce((sum, entry) => sum + Buffer.byteLength(entry.MessageBody ?? ''), 0)).toBeLessThanOrEqual(
        MAX_MESSAGE_BYTES,
      );
    }
    await expect(queue.send('ingestion', [{ blob: 'x'.repeat(MAX_MESSAGE_BYTES) }])).rejects.toThrow(/over the queue/);
  });
});
