import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_REGION } from '#infra/local/local-aws.ts';
import { startSqsServer } from '#infra/local/sqs-server.ts';
import type { FunctionDeclaration } from '#lib/ports/need.ts';
import { installPorts, portsOf } from '#lib/ports/port-set.ts';
import type { Ports } from '#lib/ports/ports.ts';
import { queueSender } from '#lib/ports/queue/queue-need.ts';
import { tableRead } from '#lib/ports/table/table-needs.ts';

const readsOnly: FunctionDeclaration = { name: 'reader', description: 'reads the table', needs: [tableRead] };

afterEach(() => installPorts(undefined));

describe('a function sees only the ports it declares', () => {
  it('locally, using an undeclared port throws, as it would in Lambda without the grant', () => {
    installPorts({ table: { name: 'local' }, mail: { send: async () => {} } } as unknown as Ports);
    const ports = portsOf(readsOnly);
    expect(ports.table).toEqual({ name: 'local' });
    expect(() => ports.mail).toThrow('the reader function does not declare the mail port');
  });

  it('in Lambda, builds a declared port from its environment on first use and nothing else', () => {
    const previous = process.env.TABLE_NAME;
    process.env.TABLE_NAME = 'service-table';
    try {
      const ports = portsOf({ ...readsOnly });
      expect(ports.table.name).toBe('service-table');
      expect(() => ports.queue).toThrow('does not declare the queue port');
      expect(ports.clock.now()).toBeInstanceOf(Date);
    } finally {
      process.env.TABLE_NAME = previous;
    }
  });

  it("in Lambda, imports a port's SDK client on the first call and sends through it", async () => {
    const sqs = await startSqsServer();
    const lambdaEnv = {
      AWS_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_SQS: sqs.endpoint,
      CORRELATION_QUEUE_URL: sqs.queueUrl('correlation'),
    };
    const previous = Object.fromEntries(Object.keys(lambdaEnv).map((name) => [name, process.env[name]]));
    Object.assign(process.env, lambdaEnv);
    try {
      const ports = portsOf({ name: 'sender', description: 'queues signals', needs: [queueSender('correlation')] });
      await ports.queue.send('correlation', [{ signalId: 'first' }]);
      await expect(ports.queue.send('mail', [{ to: 'a@b.test' }])).rejects.toThrow('not among this function');
      const { Messages } = await sqs.client.send(
        new ReceiveMessageCommand({ QueueUrl: sqs.queueUrl('correlation'), WaitTimeSeconds: 1 }),
      );
      expect(Messages?.map((message) => JSON.parse(message.Body ?? ''))).toEqual([{ signalId: 'first' }]);
    } finally {
      for (const [name, value] of Object.entries(previous)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await sqs.close();
    }
  });
});
