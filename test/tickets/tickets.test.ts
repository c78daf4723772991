import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { joinAs } from '../support/accounts.ts';
import { createIncident } from '../support/incidents.ts';

const ONCALL = 'oncall@example.com';

const TICKETS = '/api/v1/tickets';
const HISTORY = '/api/v1/tickets/history';

/** The same instant written with a +02:00 offset. */
const atPlusTwo = (iso: string): string => {
  const shifted = new Date(Date.parse(iso) + 2 * 60 * 60 * 1000).toISOString();
  return `${shifted.slice(0, -1)}+02:00`;
};

/** What a create answered, as far as the list tests look. */
interface Created {
  id: string;
  createdAt: string;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('tickets', () => {
  let client: TestClient;
  let admin: SignedIn;
  let other: SignedIn;
  let viewer: SignedIn;

  const get = async (path: string, as: SignedIn = admin) => {
    const reply = await client.request('GET', path, undefined, as.auth);
    expect(reply.status, reply.text).toBe(200);
    return reply.body;
  };
  const createProblem = async (title: string, as: SignedIn = admin) => {
    const reply = await client.request(
      'POST',
      '/api/v1/problems',
      { title, description: 'd', priority: 'LOW' },
      as.auth,
    );
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data;
  };

  beforeAll(async () => {
    client = await startTestStack();
    [admin, other] = await Promise.all([signUpBusiness(client), signUpBusiness(client, { businessName: 'Other Co' })]);
    viewer = await joinAs(client, admin, 'VIEWER');
    await joinAs(client, admin, 'ENGINEER', 'oncall@example.com');
  });
  afterAll(() => client.stack.stop());

  describe('GET /tickets', () => {
    let incidentA: Created;
    let problemA: Created;
    let incidentB: Created;
    let problemB: Created;
    const ids = (body: { data: { id: string }[] }) => body.data.map((ticket) => ticket.id);

    beforeAll(async () => {
      incidentA = await createIncident(client, admin.auth, {
        summary: 'Checkout down',
        priority: 'CRITICAL',
        assignedToEmail: ONCALL,
      });
      problemA = await createProblem('Pool leak');
      incidentB = await createIncident(client, admin.auth, {
        summary: 'Search slow',
        priority: 'MEDIUM',
        assignedToEmail: ONCALL,
      });
      problemB = await createProblem('DNS flaps');
      await createProblem('Not ours', other);
      expect(
        (await client.request('PUT', `/api/v1/incident-ticket/${incidentB.id}`, { status: 'RESOLVED' }, admin.auth))
          .status,
      ).toBe(200);
      expect(
        (await client.request('PUT', `/api/v1/problems/${problemA.id}`, { status: 'RESOLVED' }, admin.auth)).status,
      ).toBe(200);
    });

    it('lists incidents and problems together, newest first, in the ticket shape', async () => {
      const body = await get(TICKETS);
      expect(ids(body)).toEqual([problemB.id, incidentB.id, problemA.id, incidentA.id]);
      expect(body.meta).toEqual({ total: 4, page: 1, limit: 20, totalPages: 1 });
      expect(body.data[1]).toEqual({
        id: incidentB.id,
        type: 'INCIDENT',
        summary: 'Search slow',
        priority: 'MEDIUM',
        status: 'RESOLVED',
        assignedTo: 'oncall@example.com',
        createdAt: incidentB.createdAt,
        updatedAt: expect.any(String),
      });
      expect(body.data[2]).toEqual({
        id: problemA.id,
        type: 'PROBLEM',
        summary: 'Pool leak',
        priority: 'LOW',
        status: 'RESOLVED',
        assignedTo: null,
        createdAt: problemA.createdAt,
        updatedAt: expect.any(String),
      });
      expect(body.data[2].updatedAt > problemA.createdAt).toBe(true);
    });

    it('filters by type and status, together or alone', async () => {
      expect(ids(await get(`${TICKETS}?type=INCIDENT`))).toEqual([incidentB.id, incidentA.id]);
      expect(ids(await get(`${TICKETS}?type=PROBLEM`))).toEqual([problemB.id, problemA.id]);
      expect(await get(`${TICKETS}?type=CHANGE`)).toMatchObject({ data: [], meta: { total: 0, totalPages: 0 } });
      expect(ids(await get(`${TICKETS}?status=RESOLVED`))).toEqual([incidentB.id, problemA.id]);
      expect(ids(await get(`${TICKETS}?status=OPEN`))).toEqual([problemB.id, incidentA.id]);
      const both = await get(`${TICKETS}?type=PROBLEM&status=RESOLVED`);
      expect(ids(both)).toEqual([problemA.id]);
      expect(both.meta).toEqual({ total: 1, page: 1, limit: 20, totalPages: 1 });
      expect(ids(await get(`${TICKETS}?status=KNOWN_ERROR`))).toEqual([]);
    });

    it('pages with page and limit', async () => {
      const pages = await Promise.all([1, 2, 3].map((page) => get(`${TICKETS}?page=${page}&limit=3`)));
      expect(pages.map(ids)).toEqual([[problemB.id, incidentB.id, problemA.id], [incidentA.id], []]);
      expect(pages.map((body) => body.meta)).toEqual(
        [1, 2, 3].map((page) => ({ total: 4, page, limit: 3, totalPages: 2 })),
      );
    });

    it('refuses unknown types and statuses and bad paging', async () => {
      for (const query of ['?type=TASK', '?type=incident', '?status=DONE', '?limit=0', '?limit=101', '?page=-1']) {
        const reply = await client.request('GET', `${TICKETS}${query}`, undefined, admin.auth);
        expect(reply.status, query).toBe(400);
        expect(reply.body.errors.length, query).toBe(1);
      }
    });

    it('shows each workspace only its own tickets, to every role', async () => {
      expect(ids(await get(TICKETS, viewer))).toEqual([problemB.id, incidentB.id, problemA.id, incidentA.id]);
      const theirs = await get(TICKETS, other);
      expect(theirs.data.map((ticket: { summary: string }) => ticket.summary)).toEqual(['Not ours']);
      expect((await client.request('GET', TICKETS)).status).toBe(401);
    });

    it('drops a deleted problem from the list', async () => {
      const gone = await createProblem('Short lived');
      expect(ids(await get(`${TICKETS}?type=PROBLEM`))).toContain(gone.id);
      expect((await client.request('DELETE', `/api/v1/problems/${gone.id}`, undefined, admin.auth)).status).toBe(200);
      expect(ids(await get(`${TICKETS}?type=PROBLEM`))).toEqual([problemB.id, problemA.id]);
    });
  });

  describe('GET /tickets/history', () => {
    let business: SignedIn;
    let problemId: string;
    let stamps: string[];
    let incidentId: string;

    beforeAll(async () => {
      business = await signUpBusiness(client, { businessName: 'History Co' });
      problemId = (await createProblem('Disk fills', business)).id;
      await pause(5);
      await client.request('PUT', `/api/v1/problems/${problemId}`, { status: 'IN_PROGRESS' }, business.auth);
      await pause(5);
      await client.request('PUT', `/api/v1/problems/${problemId}`, { priority: 'CRITICAL' }, business.auth);
      await pause(5);
      const incident = await client.request(
        'POST',
        '/api/v1/incident-ticket',
        { summary: 'Disk full', priority: 'HIGH' },
        business.auth,
      );
      incidentId = incident.body.data.id;
      const all = await get(`${HISTORY}?ticketId=${problemId}`, business);
      stamps = all.data.map((event: { timestamp: string }) => event.timestamp);
    });

    const events = (body: { data: { event: string }[] }) => body.data.map((event) => event.event);

    it('lists one ticket history chronologically with from and to on every event', async () => {
      const body = await get(`${HISTORY}?ticketId=${problemId}`, business);
      expect(body.data).toEqual([
        {
          id: expect.any(String),
          ticketId: problemId,
          ticketType: 'PROBLEM',
          event: 'CREATED',
          from: null,
          to: 'OPEN',
          actor: business.email,
          timestamp: stamps[0],
        },
        {
          id: expect.any(String),
          ticketId: problemId,
          ticketType: 'PROBLEM',
          event: 'STATUS_CHANGE',
          from: 'OPEN',
          to: 'IN_PROGRESS',
          actor: business.email,
          timestamp: stamps[1],
        },
        {
          id: expect.any(String),
          ticketId: problemId,
          ticketType: 'PROBLEM',
          event: 'PRIORITY_CHANGE',
          from: 'LOW',
          to: 'CRITICAL',
          actor: business.email,
          timestamp: stamps[2],
        },
      ]);
      expect(body.meta).toEqual({ total: 3, page: 1, limit: 20, totalPages: 1 });
      expect([...stamps].sort()).toEqual(stamps);
    });

    it('lists the history of every ticket of the workspace without ticketId', async () => {
      const body = await get(HISTORY, business);
      const tickets = body.data.map((event: { ticketId: string }) => event.ticketId);
      expect(tickets.slice(0, 3)).toEqual([problemId, problemId, problemId]);
      expect(tickets.slice(3).every((ticketId: string) => ticketId === incidentId)).toBe(true);
      expect(body.data[3]).toMatchObject({ ticketType: 'INCIDENT', ticketId: incidentId });
      const timestamps = body.data.map((event: { timestamp: string }) => event.timestamp);
      expect([...timestamps].sort()).toEqual(timestamps);
    });

    it('keeps events between from and to, both inclusive', async () => {
      const [created, statusChanged, priorityChanged] = stamps as [string, string, string];
      const onTicket = `${HISTORY}?ticketId=${problemId}`;
      expect(events(await get(`${onTicket}&from=${statusChanged}`, business))).toEqual([
        'STATUS_CHANGE',
        'PRIORITY_CHANGE',
      ]);
      expect(events(await get(`${onTicket}&to=${statusChanged}`, business))).toEqual(['CREATED', 'STATUS_CHANGE']);
      expect(events(await get(`${onTicket}&from=${statusChanged}&to=${statusChanged}`, business))).toEqual([
        'STATUS_CHANGE',
      ]);
      expect(events(await get(`${onTicket}&from=${created}&to=${priorityChanged}`, business))).toHaveLength(3);
      const offset = await get(`${onTicket}&from=${encodeURIComponent(atPlusTwo(priorityChanged))}`, business);
      expect(events(offset)).toEqual(['PRIORITY_CHANGE']);
      expect(offset.meta.total).toBe(1);
      const workspaceWide = await get(`${HISTORY}?to=${statusChanged}`, business);
      expect(events(workspaceWide)).toEqual(['CREATED', 'STATUS_CHANGE']);
    });

    it('reads a calendar date as the whole UTC day', async () => {
      const today = stamps[0]!.slice(0, 10);
      const dayAfter = new Date(Date.parse(today) + 86_400_000).toISOString().slice(0, 10);
      const dayBefore = new Date(Date.parse(today) - 86_400_000).toISOString().slice(0, 10);
      const onTicket = `${HISTORY}?ticketId=${problemId}`;
      expect(events(await get(`${onTicket}&from=${today}&to=${today}`, business))).toHaveLength(3);
      expect(events(await get(`${onTicket}&from=${dayAfter}`, business))).toEqual([]);
      expect(events(await get(`${onTicket}&to=${dayBefore}`, business))).toEqual([]);
    });

    it('pages chronologically', async () => {
      const pages = await Promise.all(
        [1, 2].map((page) => get(`${HISTORY}?ticketId=${problemId}&limit=2&page=${page}`, business)),
      );
      expect(pages.map(events)).toEqual([['CREATED', 'STATUS_CHANGE'], ['PRIORITY_CHANGE']]);
      expect(pages[1].meta).toEqual({ total: 3, page: 2, limit: 2, totalPages: 2 });
    });

    it('refuses from after to and times that are not ISO 8601', async () => {
      const cases: [string, string][] = [
        ['from=2026-05-02T00:00:00Z&to=2026-05-01T23:59:59Z', 'from: must not be after to'],
        ['from=2026-05-02&to=2026-05-01', 'from: must not be after to'],
        ['from=yesterday', 'from:'],
        ['to=2026-13-01', 'to:'],
        ['from=2026-05-01T10:00:00', 'from:'],
        ['ticketId=', 'ticketId:'],
      ];
      for (const [query, message] of cases) {
        const reply = await client.request('GET', `${HISTORY}?${query}`, undefined, business.auth);
        expect(reply.status, query).toBe(400);
        expect(reply.body.errors, query).toEqual([expect.stringContaining(message)]);
      }
    });

    it('shows nothing of another workspace, and lets a VIEWER read', async () => {
      expect(await get(`${HISTORY}?ticketId=${problemId}`, other)).toMatchObject({ data: [], meta: { total: 0 } });
      const own = await get(HISTORY, viewer);
      expect(own.data.some((event: { ticketId: string }) => event.ticketId === problemId)).toBe(false);
    });
  });
});
