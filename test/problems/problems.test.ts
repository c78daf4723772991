import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { apiKeyHeaders, joinAs } from '../support/accounts.ts';
import { createIncident } from '../support/incidents.ts';

const PROBLEMS = '/api/v1/problems';
const UNKNOWN_ID = '01J0000000000000000000000Z';

describe('problems', () => {
  let client: TestClient;
  let admin: SignedIn;
  let other: SignedIn;
  let viewer: SignedIn;
  let incidentId: string;
  let otherIncidentId: string;

  const createProblem = async (body: Record<string, unknown>, as: SignedIn = admin) => {
    const reply = await client.request(
      'POST',
      PROBLEMS,
      { title: 'Pool exhaustion', description: 'Connections leak', ...body },
      as.auth,
    );
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data;
  };
  const history = async (ticketId: string, as: SignedIn = admin) => {
    const reply = await client.request(
      'GET',
      `/api/v1/tickets/history?ticketId=${ticketId}&limit=100`,
      undefined,
      as.auth,
    );
    expect(reply.status).toBe(200);
    return reply.body.data as Record<string, unknown>[];
  };

  beforeAll(async () => {
    client = await startTestStack();
    [admin, other] = await Promise.all([signUpBusiness(client), signUpBusiness(client, { businessName: 'Other Co' })]);
    viewer = await joinAs(client, admin, 'VIEWER');
    // Incident ids count per workspace and day, so the other workspace's second incident has an id that
    // names nothing here.
    incidentId = (await createIncident(client, admin.auth)).id;
    await createIncident(client, other.auth);
    otherIncidentId = (await createIncident(client, other.auth)).id;
  });
  afterAll(() => client.stack.stop());

  describe('POST /problems', () => {
    it('creates an OPEN problem with MEDIUM priority by default and unset fields as null', async () => {
      const reply = await client.request(
        'POST',
        PROBLEMS,
        { title: ' Slow queries ', description: 'p99 above 2 s' },
        admin.auth,
      );
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject({ success: true, message: 'Problem created' });
      const problem = reply.body.data;
      expect(problem).toEqual({
        id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
        title: 'Slow queries',
        description: 'p99 above 2 s',
        rootCause: null,
        workaround: null,
        serviceArea: null,
        priority: 'MEDIUM',
        status: 'OPEN',
        relatedIncidentIds: [],
        assignedToEmail: null,
        createdAt: expect.any(String),
        updatedAt: problem.createdAt,
      });
      expect(new Date(problem.createdAt).toISOString()).toBe(problem.createdAt);
    });

    it('stores every field, lower-cases the assignee and drops repeated incident ids', async () => {
      const problem = await createProblem({
        rootCause: 'No timeout on the pool',
        workaround: 'Restart the service',
        serviceArea: 'payments',
        priority: 'CRITICAL',
        relatedIncidentIds: [incidentId, incidentId],
        assignedToEmail: ' Ops@Example.com ',
      });
      expect(problem).toMatchObject({
        rootCause: 'No timeout on the pool',
        workaround: 'Restart the service',
        serviceArea: 'payments',
        priority: 'CRITICAL',
        status: 'OPEN',
        relatedIncidentIds: [incidentId],
        assignedToEmail: 'ops@example.com',
      });
      const fetched = await client.request('GET', `${PROBLEMS}/${problem.id}`, undefined, admin.auth);
      expect(fetched.body.data).toEqual(problem);
    });

    it('treats blank optional fields as absent and ignores a status (a problem starts OPEN)', async () => {
      const problem = await createProblem({ rootCause: '', assignedToEmail: '', status: 'RESOLVED' });
      expect(problem).toMatchObject({ rootCause: null, assignedToEmail: null, status: 'OPEN' });
    });

    it('requires title and description and checks priority, e-mail and list types', async () => {
      const reply = await client.request(
        'POST',
        PROBLEMS,
        { title: '   ', priority: 'URGENT', assignedToEmail: 'not-an-email', relatedIncidentIds: 'INC-1' },
        admin.auth,
      );
      expect(reply.status).toBe(400);
      expect(reply.body.success).toBe(false);
      const fields = (reply.body.errors as string[]).map((error) => error.split(':')[0]);
      expect(fields.sort()).toEqual(['assignedToEmail', 'description', 'priority', 'relatedIncidentIds', 'title']);
    });

    it('refuses related incidents that do not exist in the workspace, one message per id', async () => {
      const reply = await client.request(
        'POST',
        PROBLEMS,
        {
          title: 't',
          description: 'd',
          relatedIncidentIds: [incidentId, 'INC-20200101-0001', otherIncidentId, 'nonsense'],
        },
        admin.auth,
      );
      expect(reply.status).toBe(400);
      expect(reply.body.errors).toEqual([
        'relatedIncidentIds.1: no incident INC-20200101-0001 in this workspace',
        `relatedIncidentIds.2: no incident ${otherIncidentId} in this workspace`,
        'relatedIncidentIds.3: no incident nonsense in this workspace',
      ]);
    });

    it('answers malformed JSON with 400', async () => {
      const reply = await client.request('POST', PROBLEMS, '{"title":', admin.auth);
      expect(reply.status).toBe(400);
    });
  });

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

  describe('PUT /problems/:id', () => {
    it('changes only the given fields and records one history event per change', async () => {
      const problem = await createProblem({ priority: 'LOW', rootCause: 'Unknown yet' });
      const reply = await client.request(
        'PUT',
        `${PROBLEMS}/${problem.id}`,
        {
          status: 'IN_PROGRESS',
          priority: 'HIGH',
          assignedToEmail: 'SRE@example.com',
          rootCause: null,
          workaround: 'Fail over',
          relatedIncidentIds: [incidentId],
        },
        admin.auth,
      );
      expect(reply.status).toBe(200);
      expect(reply.body.message).toBe('Problem updated');
      const updated = reply.body.data;
      expect(updated).toMatchObject({
        id: problem.id,
        title: problem.title,
        description: problem.description,
        status: 'IN_PROGRESS',
        priority: 'HIGH',
        assignedToEmail: 'sre@example.com',
        rootCause: null,
        workaround: 'Fail over',
        serviceArea: null,
        relatedIncidentIds: [incidentId],
        createdAt: problem.createdAt,
      });
      expect(updated.updatedAt >= problem.updatedAt).toBe(true);
      expect((await client.request('GET', `${PROBLEMS}/${problem.id}`, undefined, admin.auth)).body.data).toEqual(
        updated,
      );

      const events = await history(problem.id);
      const actor = admin.email;
      expect(events.map(({ id: _id, timestamp: _timestamp, ...event }) => event)).toEqual([
        { ticketId: problem.id, ticketType: 'PROBLEM', event: 'CREATED', from: null, to: 'OPEN', actor },
        { ticketId: problem.id, ticketType: 'PROBLEM', event: 'STATUS_CHANGE', from: 'OPEN', to: 'IN_PROGRESS', actor },
        { ticketId: problem.id, ticketType: 'PROBLEM', event: 'PRIORITY_CHANGE', from: 'LOW', to: 'HIGH', actor },
        { ticketId: problem.id, ticketType: 'PROBLEM', event: 'ASSIGNED', from: null, to: 'sre@example.com', actor },
        {
          ticketId: problem.id,
          ticketType: 'PROBLEM',
          event: 'FIELD_CHANGE',
          field: 'rootCause',
          from: 'Unknown yet',
          to: null,
          actor,
        },
        {
          ticketId: problem.id,
          ticketType: 'PROBLEM',
          event: 'FIELD_CHANGE',
          field: 'workaround',
          from: null,
          to: 'Fail over',
          actor,
        },
        {
          ticketId: problem.id,
          ticketType: 'PROBLEM',
          event: 'FIELD_CHANGE',
          field: 'relatedIncidentIds',
          from: null,
          to: incidentId,
          actor,
        },
      ]);
    });

    it('moves the problem between status and priority lists', async () => {
      const problem = await createProblem({ priority: 'LOW' });
      await client.request(
        'PUT',
        `${PROBLEMS}/${problem.id}`,
        { status: 'RESOLVED', priority: 'CRITICAL' },
        admin.auth,
      );
      const ids = async (query: string) =>
        (await client.request('GET', `${PROBLEMS}${query}&limit=100`, undefined, admin.auth)).body.data.map(
          (item: { id: string }) => item.id,
        );
      expect(await ids('?status=RESOLVED&priority=CRITICAL')).toContain(problem.id);
      expect(await ids('?status=OPEN')).not.toContain(problem.id);
      expect(await ids('?priority=LOW')).not.toContain(problem.id);
    });

    it('records nothing when the values do not change', async () => {
      const problem = await createProblem({ priority: 'HIGH' });
      const reply = await client.request(
        'PUT',
        `${PROBLEMS}/${problem.id}`,
        { priority: 'HIGH', title: problem.title },
        admin.auth,
      );
      expect(reply.status).toBe(200);
      expect((await history(problem.id)).map((event) => event.event)).toEqual(['CREATED']);
    });

    it('refuses an empty body, unknown enum values and unknown related incidents', async () => {
      const problem = await createProblem({});
      const cases: [unknown, string][] = [
        [{}, 'body: give at least one of'],
        [{ status: 'CLOSED' }, 'status:'],
        [{ priority: 'P1' }, 'priority:'],
        [{ title: '' }, 'title:'],
        [{ description: null }, 'description:'],
        [{ relatedIncidentIds: [otherIncidentId] }, 'relatedIncidentIds.0: no incident'],
      ];
      for (const [body, message] of cases) {
        const reply = await client.request('PUT', `${PROBLEMS}/${problem.id}`, body, admin.auth);
        expect(reply.status, JSON.stringify(body)).toBe(400);
        expect(reply.body.errors[0], JSON.stringify(body)).toContain(message);
      }
      expect((await history(problem.id)).length).toBe(1);
    });

    it('answers 404 for an unknown problem or one of another workspace', async () => {
      const theirs = await createProblem({}, other);
      for (const id of [UNKNOWN_ID, 'nope', theirs.id]) {
        const reply = await client.request('PUT', `${PROBLEMS}/${id}`, { status: 'RESOLVED' }, admin.auth);
        expect(reply.status, id).toBe(404);
      }
      const untouched = await client.request('GET', `${PROBLEMS}/${theirs.id}`, undefined, other.auth);
      expect(untouched.body.data.status).toBe('OPEN');
    });
  });

  describe('DELETE /problems/:id', () => {
    it('deletes irreversibly and keeps the history, DELETED included', async () => {
      const problem = await createProblem({ assignedToEmail: 'owner@example.com' });
      const reply = await client.request('DELETE', `${PROBLEMS}/${problem.id}`, undefined, admin.auth);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ success: true, message: 'Problem deleted', data: {} });
      expect((await client.request('GET', `${PROBLEMS}/${problem.id}`, undefined, admin.auth)).status).toBe(404);
      expect((await client.request('DELETE', `${PROBLEMS}/${problem.id}`, undefined, admin.auth)).status).toBe(404);
      expect((await client.request('PUT', `${PROBLEMS}/${problem.id}`, { status: 'OPEN' }, admin.auth)).status).toBe(
        404,
      );
      const events = await history(problem.id);
      expect(events.map((event) => event.event)).toEqual(['CREATED', 'ASSIGNED', 'DELETED']);
      expect(events[2]).toMatchObject({ from: 'OPEN', to: null, message: problem.title, actor: admin.email });
    });

    it('cannot delete a problem of another workspace', async () => {
      const theirs = await createProblem({}, other);
      expect((await client.request('DELETE', `${PROBLEMS}/${theirs.id}`, undefined, admin.auth)).status).toBe(404);
      expect((await client.request('GET', `${PROBLEMS}/${theirs.id}`, undefined, other.auth)).status).toBe(200);
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
