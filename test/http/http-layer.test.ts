import type { LocalUsagePlan } from '#infra/local/local-usage-plan.ts';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import * as z from 'zod';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { binary, created, ok } from '#lib/http/envelope.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { pageQuery } from '#lib/contract/page-query.ts';
import { paged } from '#lib/http/pagination.ts';
import { defineGroup } from '#lib/http/route.ts';
import { ConflictError } from '#lib/contract/errors.ts';
import { systemClock } from '#lib/ports/clock.ts';
import { createLocalHttpServer } from '#infra/local/http-server.ts';
import { openMailbox } from '#infra/local/mailbox.ts';
import { createRouteMatcher } from '#lib/http/route-matcher.ts';
import { createRouteMiss } from '#lib/http/route-miss.ts';
import { startLocalStack } from '#infra/local/local-stack.ts';

const things = defineGroup({
  name: 'things',
  description: 'A group that exercises the HTTP layer.',
  needs: [],
  routes: {
    create: {
      method: 'POST',
      path: '/api/v1/things',
      summary: 'Create a thing',
      auth: 'public',
      request: {
        body: z.object({
          name: z.string().min(1),
          priority: z.enum(['LOW', 'HIGH']),
          tags: z.array(z.string()).optional(),
        }),
      },
    },
    list: { method: 'GET', path: '/api/v1/things', summary: 'List', auth: 'public', request: { query: pageQuery() } },
    get: {
      method: 'GET',
      path: '/api/v1/things/:id',
      summary: 'Get one',
      auth: 'public',
      request: { params: z.object({ id: z.string().regex(/^T-\d+$/, 'must look like T-<number>') }) },
    },
    boom: { method: 'GET', path: '/api/v1/things/boom', summary: 'Fails', auth: 'public' },
    conflict: { method: 'DELETE', path: '/api/v1/things/:id', summary: 'Conflicts', auth: 'public' },
    pdf: { method: 'GET', path: '/api/v1/things/:id/pdf', summary: 'Binary', auth: 'public' },
    headers: { method: 'GET', path: '/api/v1/things/echo/headers', summary: 'Echo headers', auth: 'public' },
    upload: {
      method: 'POST',
      path: '/api/v1/things/upload',
      summary: 'Large bodies',
      auth: 'public',
      maxBodyBytes: 5 * 1024 * 1024,
    },
  },
});

const PDF_BYTES = Buffer.from('%PDF-1.4\n\u00ff\u00fe binary');

const handler = createGroupHandler(things, {
  create: async ({ body }) => created({ name: body.name, priority: body.priority }, { message: 'Thing created' }),
  list: async ({ query }) => paged([{ page: query.page }], query, 45),
  get: async ({ params }) => ok({ id: params.id }),
  boom: async () => {
    throw new Error('secret database detail');
  },
  conflict: async () => {
    throw new ConflictError('Thing is locked', ['id: locked by another change']);
  },
  pdf: async () => binary('application/pdf', PDF_BYTES),
  headers: async ({ headers }) => ok(headers),
  upload: async () => ok({ received: true }),
});

let baseUrl = '';
/** The layer counts requests in the table, so the handlers run on a local stack's runtime. */
const stack = await startLocalStack({ port: 0, dataDir: ':memory:', rateLimits: 'global=10000/1m' });
const server = createLocalHttpServer({
  allowedOrigins: [],
  routes: createRouteMatcher(Object.values(things.routes).map((route) => ({ group: 'things', route }))),
  routeMiss: createRouteMiss(Object.values(things.routes).map((route) => ({ group: 'things', route }))),
  handlers: new Map([['things', handler]]),
  mailbox: await openMailbox(systemClock, undefined),
  usagePlan: stack.ports.usagePlan as LocalUsagePlan,
  now: () => systemClock.now(),
  metrics: stack.metrics,
  memory: stack.memory,
  health: stack.health,
  mailQueueIdle: async () => {},
  smsOutbox: stack.smsOutbox,
  notificationsIdle: async () => undefined,
});

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await stack.stop();
});

const call = async (path: string, init: RequestInit = {}) => {
  const response = await fetch(`${baseUrl}${path}`, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
};

const postJson = (path: string, body: string) =>
  call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('success envelope', () => {
  it('wraps data with success and message, and sets the status the handler chose', async () => {
    const response = await postJson('/api/v1/things', JSON.stringify({ name: 'disk', priority: 'HIGH' }));
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      success: true,
      message: 'Thing created',
      data: { name: 'disk', priority: 'HIGH' },
    });
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('puts a request id on every response, errors included', async () => {
    const good = await call('/api/v1/things/T-1');
    const bad = await call('/api/v1/things/nope');
    const unknown = await call('/api/v1/nothing-here');
    for (const response of [good, bad, unknown]) {
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(good.headers.get('x-request-id')).not.toBe(bad.headers.get('x-request-id'));
  });

  it('returns binary results as bytes with their content type', async () => {
    const response = await fetch(`${baseUrl}/api/v1/things/T-1/pdf`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(PDF_BYTES);
  });

  it('gives handlers lower-cased header names', async () => {
    const response = await call('/api/v1/things/echo/headers', { headers: { 'X-Custom-Thing': 'yes' } });
    expect(response.body.data['x-custom-thing']).toBe('yes');
  });
});

describe('error envelope', () => {
  it('answers an unknown route with 404 in the envelope', async () => {
    const response = await call('/api/v1/unknown/route');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      success: false,
      message: 'Route not found: GET /api/v1/unknown/route',
      errors: [],
    });
  });

  it("answers a known path with an unknown method with 405 and the path's methods in Allow", async () => {
    const response = await call('/api/v1/things/T-1', { method: 'PATCH' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, DELETE');
    expect(response.body).toEqual({
      success: false,
      message: 'Method PATCH not allowed on /api/v1/things/T-1; it accepts GET, DELETE',
      errors: [],
    });
  });

  it('prefers a literal segment over a parameter', async () => {
    const response = await call('/api/v1/things/boom');
    expect(response.status).toBe(500);
  });

  it('answers malformed JSON with 400 and the reason in errors', async () => {
    const response = await postJson('/api/v1/things', '{"name": "disk",');
    expect(response.status).toBe(400);
    expect(response.body.success).toBe(false);
    expect(response.body.message).toBe('Malformed JSON in request body');
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0]).toMatch(/^body: /);
  });

  it('parses JSON sent without a JSON content type', async () => {
    const response = await call('/api/v1/things', {
      method: 'POST',
      body: JSON.stringify({ name: 'a', priority: 'LOW' }),
    });
    expect(response.status).toBe(201);
  });

  it('lists one message per bad field', async () => {
    const response = await postJson('/api/v1/things', JSON.stringify({ priority: 'URGENT', tags: [1] }));
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('Validation failed');
    expect(response.body.errors).toHaveLength(3);
    expect(response.body.errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^name: /),
        expect.stringMatching(/^priority: /),
        expect.stringMatching(/^tags\.0: /),
      ]),
    );
  });

  it('rejects a missing body of a route that needs one with 400', async () => {
    const response = await call('/api/v1/things', { method: 'POST' });
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toMatch(/^body: /);
  });

  it('validates path parameters', async () => {
    const response = await call('/api/v1/things/nope');
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual(['id: must look like T-<number>']);
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const response = await postJson(
      '/api/v1/things',
      JSON.stringify({ name: 'x'.repeat(1024 * 1024), priority: 'LOW' }),
    );
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ success: false, message: 'Request body too large' });
  });

  it('lets a route raise its own body limit', async () => {
    const response = await postJson('/api/v1/things/upload', JSON.stringify({ blob: 'x'.repeat(2 * 1024 * 1024) }));
    expect(response.status).toBe(200);
  });

  // The gateway hands every body over base64 (binary media type */*): 4.6 MiB is over 6 MB in the event.
  it("answers 413 for a body the route allows whose event is over Lambda's 6 MB", async () => {
    const response = await postJson('/api/v1/things/upload', JSON.stringify({ blob: 'x'.repeat(4.6 * 1024 * 1024) }));
    expect(response.status).toBe(413);
  });

  it('answers a body over the invocation payload limit with 413', async () => {
    const response = await postJson('/api/v1/things/upload', JSON.stringify({ blob: 'x'.repeat(7 * 1024 * 1024) }));
    expect(response.status).toBe(413);
    expect(response.body.success).toBe(false);
  });

  it('maps an HttpError to its status, message and field messages', async () => {
    const response = await call('/api/v1/things/T-1', { method: 'DELETE' });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({
      success: false,
      message: 'Thing is locked',
      errors: ['id: locked by another change'],
    });
  });

  it('answers an unexpected error with a bare 500 that leaks nothing', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const response = await call('/api/v1/things/boom');
    stderr.mockRestore();
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ success: false, message: 'Internal server error', errors: [] });
    expect(response.text).not.toContain('secret');
  });
});

describe('pagination', () => {
  it('defaults to page 1 and 20 items and computes meta', async () => {
    const response = await call('/api/v1/things');
    expect(response.body.meta).toEqual({ total: 45, page: 1, limit: 20, totalPages: 3 });
  });

  it('takes page and limit from the query', async () => {
    const response = await call('/api/v1/things?page=3&limit=10');
    expect(response.body.meta).toEqual({ total: 45, page: 3, limit: 10, totalPages: 5 });
    expect(response.body.data).toEqual([{ page: 3 }]);
  });

  it('refuses a query parameter the route does not take, naming the ones it does', async () => {
    const response = await call('/api/v1/things?page=2&stauts=OPEN');
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual(['stauts: unknown query parameter (accepted: page, limit, cursor)']);
    const none = await call('/api/v1/things/T-7?verbose=1');
    expect(none.body.errors).toEqual(['verbose: unknown query parameter (this route takes none)']);
  });

  it.each(['limit=101', 'limit=0', 'page=0', 'limit=abc', 'page=1.5'])('refuses %s with 400', async (query) => {
    const response = await call(`/api/v1/things?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toMatch(/^(limit|page): /);
  });
});

describe('structured logs', () => {
  it('writes one JSON line per request carrying the request id', async () => {
    const previous = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = 'info';
    const lines: string[] = [];
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    const response = await call('/api/v1/things/T-7');
    stdout.mockRestore();
    process.env.LOG_LEVEL = previous;
    const entries = lines.map((line) => JSON.parse(line));
    const access = entries.find((entry) => entry.message === 'request completed');
    expect(access).toMatchObject({
      level: 'info',
      requestId: response.headers.get('x-request-id'),
      method: 'GET',
      path: '/api/v1/things/T-7',
      route: 'things.get',
      status: 200,
    });
  });
});
