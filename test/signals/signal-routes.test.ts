import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeaders, joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { SIGNALS, UNKNOWN_ID, getSignal, postSignal } from './support.ts';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

describe('signals routes', () => {
  let client: TestClient;
  let admin: SignedIn;
  let other: SignedIn;
  let viewer: SignedIn;

  let counter = 0;
  /** A signal no other test posts, so it never merges into theirs. */
  const fresh = (overrides: Record<string, unknown> = {}) => ({
    name: `CPU high ${(counter += 1)}`,
    source: 'prometheus',
    severity: 'HIGH',
    ...overrides,
  });

  beforeAll(async () => {
    client = await startTestStack();
    [admin, other] = await Promise.all([signUpBusiness(client), signUpBusiness(client, { businessName: 'Other Co' })]);
    viewer = await joinAs(client, admin, 'VIEWER');
  });
  afterAll(() => client.stack.stop());

  describe('POST /signals', () => {
    it('stores a new OPEN signal and answers 201 with id, status, createdAt and deduplicated', async () => {
      const reply = await client.request(
        'POST',
        SIGNALS,
        {
          name: ' Checkout latency ',
          source: 'Datadog',
          type: 'metric',
          severity: 'MEDIUM',
          serviceId: 'checkout',
          value: 2.5,
          metadata: { region: 'eu-west-1', tags: ['p99'] },
          triggeredAt: '2024-05-01T12:00:00+02:00',
        },
        admin.auth,
      );
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toMatchObject({ success: true, message: 'Signal created' });
      const { id, status, createdAt, deduplicated } = reply.body.data;
      expect(reply.body.data).toEqual({
        id: expect.stringMatching(ULID),
        status: 'OPEN',
        createdAt: expect.any(String),
        deduplicated: false,
      });
      expect(status).toBe('OPEN');
      expect(deduplicated).toBe(false);

      const signal = await getSignal(client, admin.auth, id);
      expect(signal).toMatchObject({
        id,
        name: 'Checkout latency',
        source: 'Datadog',
        type: 'metric',
        severity: 'MEDIUM',
        status: 'OPEN',
        serviceId: 'checkout',
        value: 2.5,
        metadata: { region: 'eu-west-1', tags: ['p99'] },
        triggeredAt: '2024-05-01T10:00:00.000Z',
        occurrences: 1,
        firstSeenAt: createdAt,
        lastSeenAt: createdAt,
        fingerprint: expect.any(String),
        incidentId: null,
        notes: [],
        createdAt,
      });
    });

    it('defaults type to "signal", triggeredAt to the time of ingestion and metadata to {}', async () => {
      const before = Date.now();
      const { id } = await postSignal(client, admin.auth, fresh());
      const signal = await getSignal(client, admin.auth, id);
      expect(signal).toMatchObject({ type: 'signal', metadata: {}, serviceId: null, value: null });
      expect(Date.parse(signal.triggeredAt)).toBeGreaterThanOrEqual(before - 1);
      expect(Date.parse(signal.triggeredAt)).toBeLessThanOrEqual(Date.now());
    });

    it('takes an API key with ingestion:write, and refuses one without it', async () => {
      const writer = await apiKeyHeaders(client, admin, ['ingestion:write', 'incidents:read']);
      const { id } = await postSignal(client, writer, fresh());
      expect((await getSignal(client, writer, id)).id).toBe(id);

      const reader = await apiKeyHeaders(client, admin, ['incidents:read']);
      expect((await client.request('POST', SIGNALS, fresh(), reader)).status).toBe(403);
    });

    it('answers 400 with a message per bad field', async () => {
      const reply = await client.request(
        'POST',
        SIGNALS,
        { name: '', severity: 'CRITICAL', value: 'high', triggeredAt: 'yesterday', metadata: { fingerprint: 42 } },
        admin.auth,
      );
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ success: false, message: 'Validation failed' });
      const fields = (reply.body.errors as string[]).map((message) => message.split(':')[0]);
      expect(fields.sort()).toEqual(['metadata.fingerprint', 'name', 'severity', 'source', 'triggeredAt', 'value']);

      expect((await client.request('POST', SIGNALS, undefined, admin.auth)).status).toBe(400);
      expect((await client.request('POST', SIGNALS, '{"name":', admin.auth)).status).toBe(400);
    });

    it('refuses metadata too large to store', async () => {
      const reply = await client.request(
        'POST',
        SIGNALS,
        fresh({ metadata: { blob: 'x'.repeat(70_000) } }),
        admin.auth,
      );
      expect(reply.status).toBe(400);
      expect(reply.body.errors).toEqual(['metadata: must be at most 65536 bytes as JSON']);
    });
  });

  describe('GET /signals/:id', () => {
    it('is 404 for an unknown id, a value that is not an id, and a signal of another workspace', async () => {
      const { id } = await postSignal(client, other.auth, fresh());
      for (const path of [UNKNOWN_ID, 'not-a-signal', id]) {
        const reply = await client.request('GET', `${SIGNALS}/${path}`, undefined, admin.auth);
        expect(reply.status, path).toBe(404);
        expect(reply.body).toMatchObject({ success: false, message: 'Signal not found', errors: [] });
      }
      expect((await getSignal(client, other.auth, id)).id).toBe(id);
    });
  });

  describe('PATCH moves', () => {
    const patch = (id: string, move: string, body?: unknown, auth = admin.auth) =>
      client.request('PATCH', `${SIGNALS}/${id}/${move}`, body, auth);

    it('acknowledges only an OPEN signal, keeping the note', async () => {
      const { id } = await postSignal(client, admin.auth, fresh());
      const acked = await patch(id, 'acknowledge', { note: 'looking into it' });
      expect(acked.status, acked.text).toBe(200);
      expect(acked.body.data).toMatchObject({ id, status: 'ACKNOWLEDGED', acknowledgedAt: expect.any(String) });
      expect(acked.body.data.notes).toEqual([
        { move: 'acknowledge', text: 'looking into it', by: admin.email, at: acked.body.data.acknowledgedAt },
      ]);

      const again = await patch(id, 'acknowledge', { note: 'twice' });
      expect(again.status).toBe(409);
      expect(again.body.errors).toEqual(['status: acknowledge is allowed only from OPEN']);
      expect((await getSignal(client, admin.auth, id)).notes).toHaveLength(1);
    });

    it('suppresses from OPEN or ACKNOWLEDGED, with an optional reason, and resolves from SUPPRESSED', async () => {
      const { id } = await postSignal(client, admin.auth, fresh());
      const suppressed = await patch(id, 'suppress', { reason: 'planned maintenance' });
      expect(suppressed.status, suppressed.text).toBe(200);
      expect(suppressed.body.data).toMatchObject({
        status: 'SUPPRESSED',
        notes: [{ move: 'suppress', text: 'planned maintenance' }],
      });
      expect((await patch(id, 'suppress')).status).toBe(409);
      expect((await patch(id, 'acknowledge')).status).toBe(409);

      const resolved = await patch(id, 'resolve');
      expect(resolved.status).toBe(200);
      expect(resolved.body.data).toMatchObject({ status: 'RESOLVED', resolvedAt: expect.any(String) });

      const { id: acked } = await postSignal(client, admin.auth, fresh());
      expect((await patch(acked, 'acknowledge')).status).toBe(200);
      expect((await patch(acked, 'suppress', { note: 'noisy' })).body.data.status).toBe('SUPPRESSED');
    });

    it('resolves from OPEN or ACKNOWLEDGED; nothing moves a RESOLVED signal (409, unchanged)', async () => {
      const { id } = await postSignal(client, admin.auth, fresh());
      expect((await patch(id, 'resolve', { note: 'fixed' })).body.data.status).toBe('RESOLVED');
      const resolved = await getSignal(client, admin.auth, id);
      for (const move of ['acknowledge', 'resolve', 'suppress']) {
        const reply = await patch(id, move, { note: 'late' });
        expect(reply.status, move).toBe(409);
        expect(reply.body.success).toBe(false);
      }
      expect(await getSignal(client, admin.auth, id)).toEqual(resolved);

      const { id: acked } = await postSignal(client, admin.auth, fresh());
      await patch(acked, 'acknowledge');
      expect((await patch(acked, 'resolve')).body.data.status).toBe('RESOLVED');
    });

    it('is 404 for an unknown signal or another workspace, 400 for a bad note', async () => {
      const { id } = await postSignal(client, other.auth, fresh());
      for (const target of [UNKNOWN_ID, 'nope', id]) {
        expect((await patch(target, 'acknowledge')).status, target).toBe(404);
      }
      expect((await getSignal(client, other.auth, id)).status).toBe('OPEN');

      const { id: mine } = await postSignal(client, admin.auth, fresh());
      const reply = await patch(mine, 'resolve', { note: 'x'.repeat(2001) });
      expect(reply.status).toBe(400);
      expect(reply.body.errors).toEqual(['note: must be at most 2000 characters']);
    });

    it('lets a VIEWER read but not write (403)', async () => {
      const { id } = await postSignal(client, admin.auth, fresh());
      expect((await client.request('GET', `${SIGNALS}/${id}`, undefined, viewer.auth)).status).toBe(200);
      expect((await client.request('GET', SIGNALS, undefined, viewer.auth)).status).toBe(200);
      expect((await client.request('GET', `${SIGNALS}/stats`, undefined, viewer.auth)).status).toBe(200);
      expect((await client.request('POST', SIGNALS, fresh(), viewer.auth)).status).toBe(403);
      expect((await client.request('POST', `${SIGNALS}/bulk`, { signals: [fresh()] }, viewer.auth)).status).toBe(403);
      for (const move of ['acknowledge', 'resolve', 'suppress']) {
        expect((await patch(id, move, {}, viewer.auth)).status, move).toBe(403);
      }
      expect((await getSignal(client, admin.auth, id)).status).toBe('OPEN');
    });
  });

  describe('POST /signals/bulk', () => {
    it('stores the good items and reports the bad ones, in input order', async () => {
      const first = fresh();
      const reply = await client.request(
        'POST',
        `${SIGNALS}/bulk`,
        { signals: [first, { name: 'no source', severity: 'LOW' }, fresh({ severity: 'LOW' }), 'not a signal', first] },
        admin.auth,
      );
      expect(reply.status, reply.text).toBe(200);
      const { accepted, rejected, results } = reply.body.data;
      expect({ accepted, rejected }).toEqual({ accepted: 3, rejected: 2 });
      expect(results.map((result: { index: number }) => result.index)).toEqual([0, 1, 2, 3, 4]);
      expect(results[0]).toEqual({ index: 0, id: expect.stringMatching(ULID), deduplicated: false });
      expect(results[1]).toEqual({ index: 1, error: expect.stringContaining('source:') });
      expect(results[2]).toMatchObject({ index: 2, id: expect.stringMatching(ULID) });
      expect(results[3]).toEqual({ index: 3, error: expect.stringContaining('expected object') });
      // The same signal twice in one request merges like two posts.
      expect(results[4]).toEqual({ index: 4, id: results[0].id, deduplicated: true });
      expect((await getSignal(client, admin.auth, results[0].id)).occurrences).toBe(2);
      expect((await getSignal(client, admin.auth, results[2].id)).severity).toBe('LOW');
    });

    it('takes 100 items and refuses 101, an empty list or no list (400)', async () => {
      const hundred = Array.from({ length: 100 }, () => fresh({ source: 'bulk-load' }));
      const reply = await client.request('POST', `${SIGNALS}/bulk`, { signals: hundred }, admin.auth);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.data).toMatchObject({ accepted: 100, rejected: 0 });
      expect(new Set(reply.body.data.results.map((result: { id: string }) => result.id)).size).toBe(100);

      const tooMany = await client.request('POST', `${SIGNALS}/bulk`, { signals: [...hundred, fresh()] }, admin.auth);
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.errors).toEqual(['signals: must hold at most 100 signals']);
      expect((await client.request('POST', `${SIGNALS}/bulk`, { signals: [] }, admin.auth)).body.errors).toEqual([
        'signals: must hold at least one signal',
      ]);
      expect((await client.request('POST', `${SIGNALS}/bulk`, {}, admin.auth)).status).toBe(400);
    });
  });

  describe('GET /signals and /signals/stats', () => {
    let lister: SignedIn;
    const ids: string[] = [];

    beforeAll(async () => {
      lister = await signUpBusiness(client, { businessName: 'Lister Ltd' });
      const plan = [
        { source: 'Grafana', severity: 'HIGH' },
        { source: 'grafana', severity: 'LOW' },
        { source: 'pager', severity: 'HIGH' },
        { source: 'pager', severity: 'MEDIUM' },
        { source: 'Grafana', severity: 'HIGH' },
      ];
      for (const [index, overrides] of plan.entries()) {
        ids.push((await postSignal(client, lister.auth, { name: `list ${index}`, ...overrides })).id);
      }
      const move = (id: string, to: string) => client.request('PATCH', `${SIGNALS}/${id}/${to}`, {}, lister.auth);
      await move(ids[0]!, 'acknowledge');
      await move(ids[1]!, 'resolve');
      await move(ids[2]!, 'suppress');
    });

    const list = async (query = '') => {
      const reply = await client.request('GET', `${SIGNALS}${query}`, undefined, lister.auth);
      expect(reply.status, reply.text).toBe(200);
      return reply.body;
    };

    it('lists newest received first with page and total beside data', async () => {
      const body = await list();
      expect(body).toMatchObject({ success: true, page: 1, total: 5 });
      expect(body.meta).toBeUndefined();
      expect(body.data.map((signal: { id: string }) => signal.id)).toEqual([...ids].reverse());
      expect(body.data[0]).toMatchObject({ name: 'list 4', occurrences: 1 });
      // Lists carry summaries: metadata only on GET one signal.
      expect(body.data[0]).not.toHaveProperty('metadata');

      const second = await list('?page=2&limit=2');
      expect(second).toMatchObject({ page: 2, total: 5 });
      expect(second.data.map((signal: { id: string }) => signal.id)).toEqual([ids[2], ids[1]]);
      expect((await list('?page=4&limit=2')).data).toEqual([]);
    });

    it('filters by status, severity and source (case-insensitive), alone or together', async () => {
      const idsOf = async (query: string) => {
        const body = await list(query);
        const found = body.data.map((signal: { id: string }) => signal.id);
        expect(body.total, query).toBe(found.length);
        return found;
      };
      expect(await idsOf('?status=OPEN')).toEqual([ids[4], ids[3]]);
      expect(await idsOf('?status=RESOLVED')).toEqual([ids[1]]);
      expect(await idsOf('?severity=HIGH')).toEqual([ids[4], ids[2], ids[0]]);
      expect(await idsOf('?source=GRAFANA')).toEqual([ids[4], ids[1], ids[0]]);
      expect(await idsOf('?source=grafana&severity=HIGH')).toEqual([ids[4], ids[0]]);
      expect(await idsOf('?status=OPEN&source=pager')).toEqual([ids[3]]);
      expect(await idsOf('?status=SUPPRESSED&severity=LOW')).toEqual([]);
    });

    it('answers 400 for bad filters and paging', async () => {
      const reply = await client.request(
        'GET',
        `${SIGNALS}?status=CLOSED&severity=urgent&limit=101&page=0`,
        undefined,
        lister.auth,
      );
      expect(reply.status).toBe(400);
      expect((reply.body.errors as string[]).map((message) => message.split(':')[0]).sort()).toEqual([
        'limit',
        'page',
        'severity',
        'status',
      ]);
    });

    it('never lists another workspace', async () => {
      const body = await list('?limit=100');
      const theirs = await postSignal(client, other.auth, fresh());
      expect(body.data.map((signal: { id: string }) => signal.id)).not.toContain(theirs.id);
      expect((await list()).total).toBe(5);
    });

    it('counts signals by status with the top sources', async () => {
      const reply = await client.request('GET', `${SIGNALS}/stats`, undefined, lister.auth);
      expect(reply.status).toBe(200);
      expect(reply.body.data).toEqual({
        total: 5,
        open: 2,
        acknowledged: 1,
        resolved: 1,
        suppressed: 1,
        topSources: [
          { source: 'grafana', count: 3 },
          { source: 'pager', count: 2 },
        ],
      });
    });

    it('counts a merged event once and a new workspace as zeros', async () => {
      const fresher = await signUpBusiness(client, { businessName: 'Empty Inc' });
      const empty = await client.request('GET', `${SIGNALS}/stats`, undefined, fresher.auth);
      expect(empty.body.data).toEqual({
        total: 0,
        open: 0,
        acknowledged: 0,
        resolved: 0,
        suppressed: 0,
        topSources: [],
      });
      await postSignal(client, fresher.auth, { name: 'same', source: 's', severity: 'LOW' });
      await postSignal(client, fresher.auth, { name: 'same', source: 's', severity: 'LOW' });
      const stats = await client.request('GET', `${SIGNALS}/stats`, undefined, fresher.auth);
      expect(stats.body.data).toMatchObject({ total: 1, open: 1, topSources: [{ source: 's', count: 1 }] });
    });
  });
});
