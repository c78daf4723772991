import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { historyOf, messagesOf } from './support.ts';
import { INCIDENTS, createIncident } from '../support/incidents.ts';

describe('incident comments, messages and resolution', () => {
  let client: TestClient;
  let admin: SignedIn;
  beforeAll(async () => {
    client = await startTestStack();
    admin = await signUpBusiness(client);
    await joinAs(client, admin, 'ENGINEER', 'sre@example.com');
  });
  afterAll(() => client.stack.stop());

  const comment = (body: unknown) => client.request('POST', `${INCIDENTS}/comment`, body, admin.auth);

  it('adds Markdown comments and lists them oldest first', async () => {
    const incident = await createIncident(client, admin.auth);
    const markdown = '## Update\n\n- rolled back `v42`\n- watching **p99**\n';
    const first = await comment({ ticketId: incident.id, content: markdown });
    expect(first.status, first.text).toBe(201);
    expect(first.body.data).toEqual({
      id: expect.any(String),
      ticketId: incident.id,
      content: markdown,
      authorEmail: admin.email,
      createdAt: expect.any(String),
    });
    const second = await comment({ ticketId: incident.id, content: 'Second' });
    const third = await comment({ ticketId: incident.id, content: 'Third' });

    const listed = await client.request('GET', `${INCIDENTS}/comment/${incident.id}`, undefined, admin.auth);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([first.body.data, second.body.data, third.body.data]);

    const history = await historyOf(client, admin.auth, incident.id);
    expect(history.filter((event) => event.event === 'COMMENT_ADDED')).toMatchObject([
      { message: markdown, actor: admin.email },
      { message: 'Second' },
      { message: 'Third' },
    ]);
  });

  it('lists no comments for a new incident and 404 for an unknown one', async () => {
    const incident = await createIncident(client, admin.auth);
    const empty = await client.request('GET', `${INCIDENTS}/comment/${incident.id}`, undefined, admin.auth);
    expect(empty.body.data).toEqual([]);
    for (const path of ['comment/INC-20000101-0001', 'message/INC-20000101-0001', 'comment/whatever']) {
      expect((await client.request('GET', `${INCIDENTS}/${path}`, undefined, admin.auth)).status, path).toBe(404);
    }
    const onUnknown = await comment({ ticketId: 'INC-20000101-0001', content: 'hello' });
    expect(onUnknown.status).toBe(404);
  });

  it('refuses an empty, too long or unaddressed comment', async () => {
    const incident = await createIncident(client, admin.auth);
    const blank = await comment({ ticketId: incident.id, content: ' \n ' });
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual(['content: must not be empty']);
    const long = await comment({ ticketId: incident.id, content: 'x'.repeat(20_001) });
    expect(long.status).toBe(400);
    const missing = await comment({});
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((error: string) => error.split(':')[0]).sort()).toEqual(['content', 'ticketId']);
    expect((await comment({ ticketId: incident.id, content: 'x'.repeat(20_000) })).status).toBe(201);
  });

  it('keeps a chronological thread of system events, changes and the resolution', async () => {
    const incident = await createIncident(client, admin.auth);
    await client.request('PUT', `${INCIDENTS}/${incident.id}`, { assignedToEmail: 'sre@example.com' }, admin.auth);
    await client.request(
      'PUT',
      `${INCIDENTS}/${incident.id}`,
      { priority: 'LOW', description: 'Not a thread event' },
      admin.auth,
    );
    await client.request(
      'PUT',
      `${INCIDENTS}/${incident.id}`,
      { assignedToEmail: null, status: 'INVESTIGATION' },
      admin.auth,
    );
    await client.request('POST', `${INCIDENTS}/resolve/${incident.id}`, undefined, admin.auth);

    const thread = await messagesOf(client, admin.auth, incident.id);
    expect(thread.map(({ kind, text }) => [kind, text])).toEqual([
      ['SYSTEM', `Incident created by ${admin.email}`],
      ['ASSIGNMENT', `Assigned to sre@example.com by ${admin.email}`],
      ['PRIORITY_CHANGE', `Priority changed from HIGH to LOW by ${admin.email}`],
      ['STATUS_CHANGE', `Status changed from OPEN to INVESTIGATION by ${admin.email}`],
      ['ASSIGNMENT', `Unassigned from sre@example.com by ${admin.email}`],
      ['RESOLUTION', `Incident resolved by ${admin.email}`],
    ]);
    for (const message of thread) {
      expect(message).toEqual({
        id: expect.any(String),
        ticketId: incident.id,
        kind: message.kind,
        text: message.text,
        actor: admin.email,
        createdAt: expect.any(String),
      });
    }
    const times = thread.map((message) => message.createdAt);
    expect([...times].sort()).toEqual(times);
  });

  it('resolves an incident with who and when, and resolves it again as a 200 that writes nothing', async () => {
    const incident = await createIncident(client, admin.auth);
    const resolved = await client.request('POST', `${INCIDENTS}/resolve/${incident.id}`, undefined, admin.auth);
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body.data).toMatchObject({ id: incident.id, status: 'RESOLVED', resolvedBy: admin.email });
    expect(resolved.body.data.resolvedAt).toBe(resolved.body.data.updatedAt);
    expect(resolved.body.data.acknowledgedAt).toBe(resolved.body.data.resolvedAt);

    const history = await historyOf(client, admin.auth, incident.id);
    expect(history.map(({ event, from, to }) => [event, from ?? null, to ?? null])).toEqual([
      ['CREATED', null, 'OPEN'],
      ['STATUS_CHANGE', 'OPEN', 'RESOLVED'],
      ['RESOLVED', null, null],
    ]);
    const thread = await messagesOf(client, admin.auth, incident.id);

    const again = await client.request('POST', `${INCIDENTS}/resolve/${incident.id}`, undefined, admin.auth);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ success: true, message: 'Incident resolved' });
    expect(again.body.data).toEqual(resolved.body.data);
    const unchanged = await client.request('GET', `${INCIDENTS}/${incident.id}`, undefined, admin.auth);
    expect(unchanged.body.data).toEqual(resolved.body.data);
    expect(await historyOf(client, admin.auth, incident.id)).toEqual(history);
    expect(await messagesOf(client, admin.auth, incident.id)).toEqual(thread);

    expect((await client.request('POST', `${INCIDENTS}/resolve/INC-20000101-0001`, undefined, admin.auth)).status).toBe(
      404,
    );
  });

  it('resolves a CLOSED incident as a status change, keeping the time and author of its closing', async () => {
    const incident = await createIncident(client, admin.auth, { priority: 'LOW' });
    const closed = await client.request('PUT', `${INCIDENTS}/${incident.id}`, { status: 'CLOSED' }, admin.auth);
    expect(closed.body.data).toMatchObject({ status: 'CLOSED', resolvedAt: expect.any(String) });
    const analytics = async () =>
      (await client.request('GET', `${INCIDENTS}/analytics`, undefined, admin.auth)).body.data.byStatus;
    const countsBefore = await analytics();

    const resolved = await client.request('POST', `${INCIDENTS}/resolve/${incident.id}`, undefined, admin.auth);
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body.data).toMatchObject({
      status: 'RESOLVED',
      resolvedAt: closed.body.data.resolvedAt,
      resolvedBy: closed.body.data.resolvedBy,
    });
    expect(resolved.body.data.updatedAt > closed.body.data.updatedAt).toBe(true);

    const history = await historyOf(client, admin.auth, incident.id);
    expect(history.slice(-2).map(({ event, from, to }) => [event, from ?? null, to ?? null])).toEqual([
      ['STATUS_CHANGE', 'CLOSED', 'RESOLVED'],
      ['RESOLVED', null, null],
    ]);
    const [lastMessage] = (await messagesOf(client, admin.auth, incident.id)).slice(-1);
    expect(lastMessage).toMatchObject({ kind: 'RESOLUTION', text: `Incident resolved by ${admin.email}` });
    expect(await analytics()).toEqual({
      ...countsBefore,
      CLOSED: countsBefore.CLOSED - 1,
      RESOLVED: countsBefore.RESOLVED + 1,
    });
  });

  it('resolves a reopened incident again, keeping its first acknowledgement', async () => {
    const incident = await createIncident(client, admin.auth, { status: 'ACKNOWLEDGED' });
    const first = await client.request('POST', `${INCIDENTS}/resolve/${incident.id}`, undefined, admin.auth);
    const reopened = await client.request(
      'PUT',
      `${INCIDENTS}/${incident.id}`,
      { status: 'INVESTIGATION' },
      admin.auth,
    );
    expect(reopened.body.data).toMatchObject({ resolvedAt: null, resolvedBy: null });
    const second = await client.request('POST', `${INCIDENTS}/resolve/${incident.id}`, undefined, admin.auth);
    expect(second.status).toBe(200);
    expect(second.body.data.resolvedAt > first.body.data.resolvedAt).toBe(true);
    expect(second.body.data.acknowledgedAt).toBe(incident.acknowledgedAt);
    const events = (await historyOf(client, admin.auth, incident.id)).map((event) => event.event);
    expect(events).toEqual(['CREATED', 'STATUS_CHANGE', 'RESOLVED', 'STATUS_CHANGE', 'STATUS_CHANGE', 'RESOLVED']);
  });
});
