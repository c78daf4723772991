import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeaders, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

const SIGNALS = '/api/v1/signals';
const INGESTION = '/api/v1/ingestion';
const NUMBER_MESSAGE = 'must be 0 or between 1e-130 and 9007199254740991 in magnitude; send other numbers as strings';

let client: TestClient;
let admin: SignedIn;
let senderKey: Record<string, string>;

beforeAll(async () => {
  client = await startTestStack();
  admin = await signUpBusiness(client);
  senderKey = await apiKeyHeaders(client, admin, ['ingestion:write']);
});
afterAll(() => client.stack.stop());

let counter = 0;
const signal = (overrides: Record<string, unknown> = {}) => ({
  name: `Queue depth ${(counter += 1)}`,
  source: 'prometheus',
  severity: 'HIGH',
  ...overrides,
});

/** `levels` objects, one inside the other; the innermost holds a string. */
const nested = (levels: number): Record<string, unknown> => {
  let value: unknown = 'bottom';
  for (let level = 0; level < levels; level += 1) value = { next: value };
  return value as Record<string, unknown>;
};

const signalsStored = async (): Promise<number> =>
  (await client.request('GET', `${SIGNALS}?limit=1`, undefined, admin.auth)).body.total as number;

/** Posts a body that must be refused, and checks that nothing was stored. */
const expectRefused = async (path: string, body: unknown, headers: Record<string, string>): Promise<string[]> => {
  const before = await signalsStored();
  const reply = await client.request('POST', path, body, headers);
  expect(reply.status, reply.text).toBe(400);
  expect(await signalsStored()).toBe(before);
  return reply.body.errors as string[];
};

describe('numbers the table cannot keep exactly', () => {
  it('are a 400 naming the field, as a signal value or anywhere in metadata', async () => {
    expect(await expectRefused(SIGNALS, signal({ value: 1e20 }), admin.auth)).toEqual([`value: ${NUMBER_MESSAGE}`]);
    expect(await expectRefused(SIGNALS, signal({ value: -1e-200 }), admin.auth)).toEqual([`value: ${NUMBER_MESSAGE}`]);
    const metadata = { disk: { sizes: [1, 2 ** 60] }, ratio: 5e-324 };
    expect((await expectRefused(SIGNALS, signal({ metadata }), admin.auth)).sort()).toEqual([
      `metadata.disk.sizes.1: ${NUMBER_MESSAGE}`,
      `metadata.ratio: ${NUMBER_MESSAGE}`,
    ]);
  });

  it('are kept as sent when within range, the largest safe integer and the smallest magnitude included', async () => {
    const metadata = {
      big: Number.MAX_SAFE_INTEGER,
      small: -1e-130,
      fraction: 0.1 + 0.2,
      zero: 0,
      text: '12345678901234567890',
    };
    const created = await client.request(
      'POST',
      SIGNALS,
      signal({ value: -Number.MAX_SAFE_INTEGER, metadata }),
      admin.auth,
    );
    expect(created.status, created.text).toBe(201);
    const stored = await client.request('GET', `${SIGNALS}/${created.body.data.id}`, undefined, admin.auth);
    expect(stored.body.data).toMatchObject({ value: -Number.MAX_SAFE_INTEGER, metadata });
  });

  it('reject only their own item of a bulk post', async () => {
    const reply = await client.request(
      'POST',
      `${SIGNALS}/bulk`,
      { signals: [signal(), signal({ value: 1e20 }), signal()] },
      admin.auth,
    );
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data).toMatchObject({ accepted: 2, rejected: 1 });
    expect(reply.body.data.results[1]).toEqual({ index: 1, error: `value: ${NUMBER_MESSAGE}` });
  });

  it("in a sender's metadata are kept as parsed, since the sender cannot change them", async () => {
    const webhook = {
      source: 'cron',
      title: 'Backup late',
      severity: 'high',
      status: 'firing',
      metadata: { lagMs: 1e20 },
    };
    const reply = await client.request('POST', `${INGESTION}/webhook`, webhook, senderKey);
    expect(reply.status, reply.text).toBe(202);
    const stored = await client.request('GET', `${SIGNALS}/${reply.body.data.signalId}`, undefined, admin.auth);
    expect(stored.body.data.metadata.lagMs).toBe(1e20);
  });

  it("are a 400 naming the field where a sender's number becomes a stored field, never a 500", async () => {
    const event = JSON.parse(
      readFileSync('test/fixtures/ingestion/orchestrator/event-02-Normal-Scheduled-Pod.json', 'utf8'),
    );
    expect(await expectRefused(`${INGESTION}/orchestrator`, { ...event, count: 1e20 }, senderKey)).toEqual([
      `count: ${NUMBER_MESSAGE}`,
    ]);
  });

  it('in an Alertmanager value annotation leave the signal without a value, the annotation keeping the text', async () => {
    const group = JSON.parse(readFileSync('test/fixtures/ingestion/metrics-alerts/captured.json', 'utf8'));
    group.alerts[0].annotations.value = '1e+20';
    group.alerts[0].fingerprint = 'huge-value';
    const reply = await client.request('POST', `${INGESTION}/metrics-alerts`, group, senderKey);
    expect(reply.status, reply.text).toBe(202);
    const stored = await client.request('GET', `${SIGNALS}/${reply.body.data.signalId}`, undefined, admin.auth);
    expect(stored.body.data.value).toBeNull();
    expect(stored.body.data.metadata.annotations.value).toBe('1e+20');
  });
});

describe('metadata nesting', () => {
  it('takes 31 levels, as deep as DynamoDB nests a top-level attribute, and gives them back', async () => {
    const metadata = nested(31);
    const created = await client.request('POST', SIGNALS, signal({ metadata }), admin.auth);
    expect(created.status, created.text).toBe(201);
    const stored = await client.request('GET', `${SIGNALS}/${created.body.data.id}`, undefined, admin.auth);
    expect(stored.body.data.metadata).toEqual(metadata);
  });

  it("refuses 32 levels on POST /signals; a sender's metadata is kept whatever its nesting", async () => {
    const path = `metadata${'.next'.repeat(31)}`;
    const message = `${path}: must nest at most 31 levels of objects and arrays`;
    expect(await expectRefused(SIGNALS, signal({ metadata: nested(32) }), admin.auth)).toEqual([message]);
    const webhook = { source: 'cron', title: 'Deep', severity: 'low', status: 'firing', metadata: nested(32) };
    const reply = await client.request('POST', `${INGESTION}/webhook`, webhook, senderKey);
    expect(reply.status, reply.text).toBe(202);
  });

  it('counts arrays as levels too', async () => {
    const arrays = `{"name":"deep arrays","source":"x","severity":"LOW","metadata":{"a":${'['.repeat(31)}${']'.repeat(31)}}}`;
    const errors = await expectRefused(SIGNALS, arrays, admin.auth);
    expect(errors).toEqual([`metadata.a${'.0'.repeat(30)}: must nest at most 31 levels of objects and arrays`]);
  });

  it('refuses nesting deeper than any call stack with a 400, not a 500', async () => {
    const deep = `{"name":"deep","source":"x","severity":"LOW","metadata":{"a":${'['.repeat(200_000)}${']'.repeat(200_000)}}}`;
    await expectRefused(SIGNALS, deep, admin.auth);
  });
});

describe('metadata size', () => {
  it('refuses a wide array over the byte limit with a 400, without overflowing the stack', async () => {
    const errors = await expectRefused(
      SIGNALS,
      signal({ metadata: { samples: new Array(130_000).fill(0) } }),
      admin.auth,
    );
    expect(errors).toEqual(['metadata: must be at most 65536 bytes as JSON']);
  });

  it('counts the bytes of the JSON text, multi-byte characters as their UTF-8 bytes', async () => {
    // {"t":"…"} is 8 bytes of punctuation and key around the text.
    const fits = await client.request(
      'POST',
      SIGNALS,
      signal({ metadata: { t: 'é'.repeat((65_536 - 8) / 2) } }),
      admin.auth,
    );
    expect(fits.status, fits.text).toBe(201);
    const over = await expectRefused(
      SIGNALS,
      signal({ metadata: { t: `${'é'.repeat((65_536 - 8) / 2)}x` } }),
      admin.auth,
    );
    expect(over).toEqual(['metadata: must be at most 65536 bytes as JSON']);
  });
});

describe('keys the store reads as types', () => {
  const TYPE_KEY_MESSAGE = "must not be named constructor: the table reads that key as the object's type";

  const PROTO_REFUSED = ['body: a key named __proto__ is not accepted'];
  /** Raw JSON text, since JSON.stringify of an object literal would never write a `__proto__` key. */
  const polluting = (name: string) =>
    `{"name":"${name}","source":"x","severity":"LOW","metadata":{"__proto__":{"polluted":"yes"}}}`;

  it('__proto__ anywhere in a body is a 400 naming it, nothing stored', async () => {
    const body = `{"name":"proto","source":"x","severity":"LOW","metadata":{"labels":{"__proto__":{"env":"prod"}}}}`;
    expect(await expectRefused(SIGNALS, body, admin.auth)).toEqual(PROTO_REFUSED);
    expect(await expectRefused(SIGNALS, polluting('proto single'), admin.auth)).toEqual(PROTO_REFUSED);
    const webhook = `{"source":"cron","title":"Proto","severity":"high","status":"firing","metadata":{"__proto__":{"polluted":"yes"}}}`;
    expect(await expectRefused(`${INGESTION}/webhook`, webhook, senderKey)).toEqual(PROTO_REFUSED);
    // On the bulk route, outside the items the body is refused whole, like any other.
    const outsideItems = `{"signals":[${JSON.stringify(signal())}],"__proto__":{"polluted":"yes"}}`;
    expect(await expectRefused(`${SIGNALS}/bulk`, outsideItems, admin.auth)).toEqual(PROTO_REFUSED);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('__proto__ inside one bulk item rejects that item only, naming its path; its neighbours are stored', async () => {
    const [first, last] = [signal(), signal()];
    const body = `{"signals":[${JSON.stringify(first)},${polluting('proto item')},${JSON.stringify(last)}]}`;
    const reply = await client.request('POST', `${SIGNALS}/bulk`, body, admin.auth);
    expect(reply.status, reply.text).toBe(200);
    const { accepted, rejected, results } = reply.body.data;
    expect({ accepted, rejected }).toEqual({ accepted: 2, rejected: 1 });
    expect(results[1]).toEqual({ index: 1, error: 'metadata.__proto__: a key named __proto__ is not accepted' });
    for (const [index, sent] of [[0, first] as const, [2, last] as const]) {
      const stored = await client.request('GET', `${SIGNALS}/${results[index].id}`, undefined, admin.auth);
      expect(stored.status, stored.text).toBe(200);
      expect(stored.body.data).toMatchObject({ name: sent.name, source: sent.source, severity: sent.severity });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });

  it('a bulk item holding __proto__ anywhere, or a constructor with a prototype, is refused with every path', async () => {
    const body = `{"signals":[{"name":"top","source":"x","severity":"LOW","__proto__":{"polluted":"yes"}},
      {"name":"deep","source":"x","severity":"LOW","metadata":{"a":[{"constructor":{"prototype":{"polluted":"yes"}}}]}},
      ${JSON.stringify(signal())}]}`;
    const reply = await client.request('POST', `${SIGNALS}/bulk`, body, admin.auth);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data).toMatchObject({ accepted: 1, rejected: 2 });
    expect(reply.body.data.results.slice(0, 2)).toEqual([
      { index: 0, error: '__proto__: a key named __proto__ is not accepted' },
      { index: 1, error: 'metadata.a.0.constructor: a key named constructor is not accepted' },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('constructor in POST /signals metadata is a 400 naming its path; in Alertmanager labels it is kept', async () => {
    const metadata = { labels: { constructor: 'x' } };
    expect(await expectRefused(SIGNALS, signal({ metadata }), admin.auth)).toEqual([
      `metadata.labels.constructor: ${TYPE_KEY_MESSAGE}`,
    ]);
    const group = JSON.parse(readFileSync('test/fixtures/ingestion/metrics-alerts/captured.json', 'utf8'));
    group.alerts[0].labels.constructor = 'x';
    group.alerts[0].fingerprint = 'constructor-label';
    const reply = await client.request('POST', `${INGESTION}/metrics-alerts`, group, senderKey);
    expect(reply.status, reply.text).toBe(202);
    const stored = await client.request('GET', `${SIGNALS}/${reply.body.data.signalId}`, undefined, admin.auth);
    expect(stored.body.data.metadata.labels.constructor).toBe('x');
  });

  it('other inherited names such as toString are ordinary keys, stored as sent', async () => {
    const metadata = { toString: 'kept', labels: { valueOf: 'kept too', hasOwnProperty: 'x' } };
    const created = await client.request('POST', SIGNALS, signal({ metadata }), admin.auth);
    expect(created.status, created.text).toBe(201);
    const stored = await client.request('GET', `${SIGNALS}/${created.body.data.id}`, undefined, admin.auth);
    expect(stored.body.data.metadata).toEqual(metadata);
  });
});
