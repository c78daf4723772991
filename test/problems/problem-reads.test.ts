import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEMS, UNKNOWN_ID, type ProblemsWorld, startProblemsWorld } from './support.ts';
import { apiKeyHeaders, type SignedIn, signUpBusiness } from '../support/accounts.ts';

describe('problems: read, list, roles and keys', () => {
  let client: ProblemsWorld['client'];
  let admin: ProblemsWorld['admin'];
  let other: ProblemsWorld['other'];
  let viewer: ProblemsWorld['viewer'];
  let createProblem: ProblemsWorld['createProblem'];
  let history: ProblemsWorld['history'];

  beforeAll(async () => {
    ({ client, admin, other, viewer, createProblem, history } = await startProblemsWorld());
  });
  afterAll(() => client.stack.stop());

  describe('GET /problems/:id', () => {
    it('answers 404 for an unknown id, a malformed id and a problem of another workspace', async () => {
      const theirs = await createProblem({}, other);
      for (const id of [UNKNOWN_ID, 'not-a-problem', theirs.id]) {
        const reply = await client.request('GET', `${PROBLEMS}/${id}`, undefined, admin.auth);
        expect(reply.status, id).toBe(404);
        expect(reply.body).toEqual({ success: false, message: 'Problem not found', errors: [] });
      }
    });

    it('needs credentials', async () => {
      expect((await client.request('GET', `${PROBLEMS}/${UNKNOWN_ID}`)).status).toBe(401);
    });
  });

  describe('GET /problems', () => {
    let business: SignedIn;
    let ids: string[];

    beforeAll(async () => {
      business = await signUpBusiness(client, { businessName: 'List Co' });
      const specs = [
        { priority: 'LOW' },
        { priority: 'HIGH' },
        { priority: 'HIGH' },
        { priority: 'CRITICAL' },
        { priority: 'LOW' },
      ];
      ids = [];
      for (const spec of specs) ids.push((await createProblem(spec, business)).id);
      await client.request('PUT', `${PROBLEMS}/${ids[1]}`, { status: 'KNOWN_ERROR' }, business.auth);
      await client.request('PUT', `${PROBLEMS}/${ids[3]}`, { status: 'KNOWN_ERROR' }, business.auth);
      await client.request('PUT', `${PROBLEMS}/${ids[4]}`, { status: 'RESOLVED' }, business.auth);
    });

    const list = async (query: string) => {
      const reply = await client.request('GET', `${PROBLEMS}${query}`, undefined, business.auth);
      expect(reply.status, reply.text).toBe(200);
      return reply.body;
    };

    it('lists newest first with meta', async () => {
      const body = await list('');
      expect(body.data.map((problem: { id: string }) => problem.id)).toEqual([...ids].reverse());
      expect(body.meta).toEqual({ total: 5, page: 1, limit: 20, totalPages: 1 });
    });

    it('pages with page and limit', async () => {
      const pages = await Promise.all([1, 2, 3, 4].map((page) => list(`?page=${page}&limit=2`)));
      expect(pages.map((body) => body.data.map((problem: { id: string }) => problem.id))).toEqual([
        [ids[4], ids[3]],
        [ids[2], ids[1]],
        [ids[0]],
        [],
      ]);
      for (const [index, body] of pages.entries()) {
        expect(body.meta).toEqual({ total: 5, page: index + 1, limit: 2, totalPages: 3 });
      }
    });

    it('filters by status, by priority and by both', async () => {
      const byStatus = await list('?status=KNOWN_ERROR');
      expect(byStatus.data.map((problem: { id: string }) => problem.id)).toEqual([ids[3], ids[1]]);
      expect(byStatus.meta.total).toBe(2);
      const byPriority = await list('?priority=HIGH');
      expect(byPriority.data.map((problem: { id: string }) => problem.id)).toEqual([ids[2], ids[1]]);
      const both = await list('?status=KNOWN_ERROR&priority=HIGH');
      expect(both.data.map((problem: { id: string }) => problem.id)).toEqual([ids[1]]);
      expect(both.meta).toEqual({ total: 1, page: 1, limit: 20, totalPages: 1 });
      expect((await list('?status=IN_PROGRESS')).meta).toEqual({ total: 0, page: 1, limit: 20, totalPages: 0 });
    });

    it('refuses unknown statuses and priorities and out-of-range paging', async () => {
      for (const query of [
        '?status=CLOSED',
        '?status=open',
        '?priority=URGENT',
        '?limit=101',
        '?page=0',
        '?limit=abc',
      ]) {
        const reply = await client.request('GET', `${PROBLEMS}${query}`, undefined, business.auth);
        expect(reply.status, query).toBe(400);
        expect(reply.body.errors.length, query).toBe(1);
      }
    });

    it('shows only the caller workspace', async () => {
      const body = await list('?limit=100');
      const reply = await client.request('GET', `${PROBLEMS}?limit=100`, undefined, other.auth);
      const theirs = new Set(reply.body.data.map((problem: { id: string }) => problem.id));
      expect(body.data.some((problem: { id: string }) => theirs.has(problem.id))).toBe(false);
    });
  });

  describe('roles and API keys', () => {
    it('lets a VIEWER read but not write', async () => {
      const problem = await createProblem({});
      expect((await client.request('GET', PROBLEMS, undefined, viewer.auth)).status).toBe(200);
      expect((await client.request('GET', `${PROBLEMS}/${problem.id}`, undefined, viewer.auth)).status).toBe(200);
      const writes = [
        await client.request('POST', PROBLEMS, { title: 't', description: 'd' }, viewer.auth),
        await client.request('PUT', `${PROBLEMS}/${problem.id}`, { status: 'RESOLVED' }, viewer.auth),
        await client.request('DELETE', `${PROBLEMS}/${problem.id}`, undefined, viewer.auth),
      ];
      expect(writes.map((reply) => reply.status)).toEqual([403, 403, 403]);
      expect((await client.request('GET', `${PROBLEMS}/${problem.id}`, undefined, admin.auth)).body.data.status).toBe(
        'OPEN',
      );
    });

    it('takes API keys with the incidents scopes and names the key in history', async () => {
      const [reader, writer] = await Promise.all([
        apiKeyHeaders(client, admin, ['incidents:read']),
        apiKeyHeaders(client, admin, ['incidents:write', 'incidents:read']),
      ]);
      expect((await client.request('POST', PROBLEMS, { title: 't', description: 'd' }, reader)).status).toBe(403);
      const reply = await client.request('POST', PROBLEMS, { title: 'From a key', description: 'd' }, writer);
      expect(reply.status).toBe(201);
      expect((await client.request('GET', `${PROBLEMS}/${reply.body.data.id}`, undefined, reader)).status).toBe(200);
      expect((await history(reply.body.data.id))[0]).toMatchObject({
        event: 'CREATED',
        actor: 'api-key:test key incidents:write incidents:read',
      });
    });
  });
});
