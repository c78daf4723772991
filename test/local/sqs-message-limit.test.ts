import { SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqsServer, type LocalSqs } from '#infra/local/sqs-server.ts';
import { MAX_MESSAGE_BYTES } from '#lib/ports/queue/queue.ts';

let sqs: LocalSqs;

beforeAll(async () => {
  sqs = await startSqsServer();
});

afterAll(async () => {
  await sqs?.close();
});

/**
 * The stack creates every work queue with a maximum message size of 256 KiB (infra/constructs/work-queue.ts),
 * and the local queues the same way, so a send the deployed queue would refuse is refused here too. (A batch
 * may hold up to 1 MiB in all, as SQS allows today; each of its messages stays within the queue's maximum.)
 */
describe('the local SQS server, with the queues as the stack creates them', () => {
  const body = (bytes: number) => 'x'.repeat(bytes);

  it('takes a message of exactly 256 KiB', async () => {
    const sent = sqs.client.send(
      new SendMessageCommand({ QueueUrl: sqs.queueUrl('ingestion'), MessageBody: body(MAX_MESSAGE_BYTES) }),
    );
    await expect(sent).resolves.toMatchObject({ MessageId: expect.any(String) });
  });

  it('refuses a message one byte over, as SendMessage does in AWS', async () => {
    const sent = sqs.client.send(
      new SendMessageCommand({ QueueUrl: sqs.queueUrl('ingestion'), MessageBody: body(MAX_MESSAGE_BYTES + 1) }),
    );
    await expect(sent).rejects.toMatchObject({ name: 'InvalidParameterValue' });
  });

  it('fails the entry of a batch that is over, and sends the others', async () => {
    const { Successful = [], Failed = [] } = await sqs.client.send(
      new SendMessageBatchCommand({
        QueueUrl: sqs.queueUrl('mail'),
        Entries: [
          { Id: 'small', MessageBody: body(10) },
          { Id: 'large', MessageBody: body(MAX_MESSAGE_BYTES + 1) },
        ],
      }),
    );
    expect(Successful.map(({ Id }) => Id)).toEqual(['small']);
    expect(Failed).toEqual([
      expect.objectContaining({ Id: 'large', Code: 'InvalidParameterValue', SenderFault: true }),
    ]);
  });
});
