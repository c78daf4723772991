import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
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
// The unit project shares its workers' modules: a class-level mock left in place answers the next file's clients.
afterAll(() => {
  s3.restore();
  sqs.restore();
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
  // Sends that overlap share batches (test/local/sqs-queue-sharing.test.ts); each settles by its own messages.
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

  it('fails only the send whose message SQS refused', async () => {
    sqs.on(SendMessageBatchCommand).callsFake(async ({ Entries = [] }) => ({
      Successful: [],
      Failed: Entries.filter((entry: { MessageBody?: string }) => entry.MessageBody?.includes('refused')).map(
        (entry: { Id?: string }) => ({ Id: entry.Id, Code: 'InternalError', SenderFault: false }),
      ),
    }));
    const sends = [[{ id: 'first' }], [{ id: 'accepted' }], [{ id: 'refused' }, { id: 'with-it' }]].map((messages) =>
      queue.send('mail', messages),
    );
    const outcomes = await Promise.allSettled(sends);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((outcomes[2] as PromiseRejectedResult).reason.message).toMatch(/1 message\(s\) not accepted by queue mail/);
    expect(sqs.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input.Entries?.length)).toEqual([1, 3]);
  });

  it('fails every send of a batch the call itself failed, and the next batches still go', async () => {
    sqs.on(SendMessageBatchCommand).rejectsOnce(new Error('connection reset')).resolves({ Successful: [], Failed: [] });
    const first = queue.send('mail', [{ id: 'lost' }]);
    const second = queue.send('mail', [{ id: 'next' }]);
    await expect(first).rejects.toThrow('connection reset');
    await expect(second).resolves.toBeUndefined();
  });
});
