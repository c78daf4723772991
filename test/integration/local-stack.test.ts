import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_TYPE } from '#lib/http/content-types.ts';
import { allRoutes } from '#lib/routes/index.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

describe('the local stack', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await startTestStack();
  });
  afterAll(() => client.stack.stop());

  it('answers health with 200 in the success envelope', async () => {
    const reply = await client.request('GET', '/api/v1/health');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ success: true, message: 'Service is up', data: { status: 'ok' } });
    expect(reply.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers an unknown route with a 404 envelope', async () => {
    const reply = await client.request('GET', '/api/v1/does-not-exist');
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ success: false, message: 'Route not found: GET /api/v1/does-not-exist', errors: [] });
  });

  it('answers malformed JSON with 400 and errors', async () => {
    const reply = await client.request('POST', '/api/v1/auth/login', '{"email": "a@b.c",');
    expect(reply.status).toBe(400);
    expect(reply.body.success).toBe(false);
    expect(reply.body.errors.length).toBeGreaterThan(0);
  });

  it('answers a body over 1 MiB with a 413 envelope', async () => {
    const reply = await client.request('POST', '/api/v1/auth/login', {
      email: 'a@b.c',
      password: 'x'.repeat(1_100_000),
    });
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({ success: false, message: 'Request body too large' });
  });

  it('routes every route of the table to its group: none is unknown', async () => {
    const unrouted: string[] = [];
    for (const { route } of allRoutes()) {
      const path = route.path.replace(/:([A-Za-z]+)/g, (_match, name: string) =>
        name === 'index' ? '0' : `sample-${name}`,
      );
      const reply = await client.request(
        route.method,
        path,
        route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
      );
      if (reply.status === 405 || (reply.status === 404 && reply.body?.message?.startsWith('Route not found')))
        unrouted.push(`${route.method} ${route.path}`);
      // A route that answers a file (the API docs) answers it, not an envelope, when it succeeds; a foreign
      // paging tool's event API answers in that tool's own JSON, failures included; a page for people (the
      // acknowledge link) answers its failures as pages too.
      const ownBody = route.response !== undefined && 'contentType' in route.response ? route.response : undefined;
      if (ownBody?.contentType === JSON_TYPE) expect(reply.body, `${route.method} ${route.path}`).toBeTypeOf('object');
      else if (ownBody?.contentType.startsWith('text/html'))
        expect(reply.headers.get('content-type'), `${route.method} ${route.path}`).toMatch(/^text\/html/);
      else if (!(ownBody && reply.status === 200))
        expect(reply.body?.success, `${route.method} ${route.path}`).toBeTypeOf('boolean');
    }
    expect(unrouted).toEqual([]);
  });

  it('serves the local mailbox, newest first', async () => {
    await client.stack.mailbox.deliver({ to: 'Ada@Example.com', subject: 'first', text: 'one' });
    await client.stack.mailbox.deliver({ to: 'ada@example.com', subject: 'second', text: 'two', otp: '123456' });
    const reply = await client.request('GET', '/_local/mailbox?to=ada@example.com');
    expect(reply.status).toBe(200);
    expect(reply.body.data.map((mail: { subject: string }) => mail.subject)).toEqual(['second', 'first']);
    expect(reply.body.data[0]).toMatchObject({ to: 'ada@example.com', otp: '123456', sentAt: expect.any(String) });
  });

  it('asks for the address of the mailbox to read', async () => {
    const reply = await client.request('GET', '/_local/mailbox');
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual(['to: Required']);
  });
});

describe('a restart', () => {
  it('finds the data, mail and queued messages written before it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'incident-service-'));
    try {
      const first = await startTestStack(dataDir);
      const { table } = first.stack.ports;
      await table.doc.send(
        new PutCommand({ TableName: table.name, Item: { pk: 'WS#w1#PROBE', sk: 'one', value: 42 } }),
      );
      await first.stack.mailbox.deliver({ to: 'ops@example.com', subject: 'kept', text: 'kept across restarts' });
      await first.stack.ports.queue.send('correlation', [{ signalId: 'kept-in-queue' }]);
      await first.stack.stop();

      const second = await startTestStack(dataDir);
      try {
        const runtime = second.stack.ports;
        const item = await runtime.table.doc.send(
          new GetCommand({ TableName: runtime.table.name, Key: { pk: 'WS#w1#PROBE', sk: 'one' } }),
        );
        expect(item.Item?.value).toBe(42);
        const mail = await second.request('GET', '/_local/mailbox?to=ops@example.com');
        expect(mail.body.data.map((message: { subject: string }) => message.subject)).toEqual(['kept']);
        const queued = await second.stack.queues.client.send(
          new ReceiveMessageCommand({ QueueUrl: second.stack.queues.queueUrl('correlation'), MaxNumberOfMessages: 10 }),
        );
        expect(queued.Messages?.map((message) => JSON.parse(message.Body ?? ''))).toEqual([
          { signalId: 'kept-in-queue' },
        ]);
        const health = await second.request('GET', '/api/v1/health');
        expect(health.status).toBe(200);
      } finally {
        await second.stack.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
