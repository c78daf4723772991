import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEMS, UNKNOWN_ID, type ProblemsWorld, startProblemsWorld } from './support.ts';

describe('problems: create, update, delete', () => {
  let client: ProblemsWorld['client'];
  let admin: ProblemsWorld['admin'];
  let other: ProblemsWorld['other'];
  let incidentId: ProblemsWorld['incidentId'];
  let otherIncidentId: ProblemsWorld['otherIncidentId'];
  let createProblem: ProblemsWorld['createProblem'];
  let history: ProblemsWorld['history'];

  beforeAll(async () => {
    ({ client, admin, other, incidentId, otherIncidentId, createProblem, history } = await startProblemsWorld());
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
});
