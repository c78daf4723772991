import { BatchGetCommand, BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incidentAnalysisPartition } from '#lib/incidents/analysis-item.ts';
import { incidentChildPartition } from '#lib/incidents/incident-item.ts';
import { joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { historyOf, messagesOf } from './support.ts';
import { INCIDENTS, createIncident } from '../support/incidents.ts';

const FULL = {
  summary: 'Payments API returns 502',
  priority: 'CRITICAL',
  source: 'metrics-alerts',
  serviceArea: 'payments',
  environment: 'Production',
  region: 'eu-west-1',
  assignedToEmail: 'Oncall@Example.com',
  description: 'Some customers cannot pay.',
  techDescription: 'Upstream **timeouts** from the card gateway.',
  impactSummary: '12% of checkouts fail',
  blastRadius: 'EU checkout',
};

describe('incident create, get, update, delete', () => {
  let client: TestClient;
  let admin: SignedIn;
  let other: SignedIn;
  beforeAll(async () => {
    client = await startTestStack();
    [admin, other] = await Promise.all([signUpBusiness(client), signUpBusiness(client, { businessName: 'Other Co' })]);
    // Incidents are assigned to members only.
    for (const email of ['oncall@example.com', 'sre@example.com', 'a@example.com', 'b@example.com']) {
      await joinAs(client, admin, 'ENGINEER', email);
    }
  });
  afterAll(() => client.stack.stop());
  const workspaceId = (): string => admin.user.businessId ?? '';

  it('creates an incident with every field and returns it whole', async () => {
    const reply = await client.request('POST', INCIDENTS, { ...FULL, unknownField: 'ignored' }, admin.auth);
    expect(reply.status, reply.text).toBe(201);
    const incident = reply.body.data;
    expect(incident.id).toMatch(/^INC-\d{8}-\d{4}$/);
    expect(incident.id.slice(4, 12)).toBe(new Date().toISOString().slice(0, 10).replaceAll('-', ''));
    expect(incident).toMatchObject({
      ...FULL,
      assignedToEmail: 'oncall@example.com',
      ticketId: incident.id,
      businessId: admin.user.businessId,
      status: 'OPEN',
      acknowledgedAt: null,
      resolvedAt: null,
      createdBy: admin.email,
    });
    expect(incident.createdAt).toBe(incident.updatedAt);
    expect(incident).not.toHaveProperty('unknownField');
    expect(incident).not.toHaveProperty('pk');

    const fetched = await client.request('GET', `${INCIDENTS}/${incident.id}`, undefined, admin.auth);
    expect(fetched.status).toBe(200);
    expect(fetched.body.data).toEqual(incident);
  });

  it('fills the optional fields with null and treats blank ones as absent', async () => {
    const incident = await createIncident(client, admin.auth, { region: '   ', description: '' });
    expect(incident).toMatchObject({
      status: 'OPEN',
      region: null,
      description: null,
      source: null,
      assignedToEmail: null,
    });
  });

  it('stamps acknowledgement and resolution when an incident is created past OPEN', async () => {
    const investigating = await createIncident(client, admin.auth, { status: 'INVESTIGATION' });
    expect(investigating.acknowledgedAt).toBe(investigating.createdAt);
    expect(investigating.resolvedAt).toBeNull();
    const closed = await createIncident(client, admin.auth, { status: 'CLOSED' });
    expect(closed).toMatchObject({
      acknowledgedAt: closed.createdAt,
      resolvedAt: closed.createdAt,
      resolvedBy: admin.email,
    });
  });

  it('writes a CREATED history event, at the instant of the incident, and a system message on create', async () => {
    const incident = await createIncident(client, admin.auth);
    expect(await historyOf(client, admin.auth, incident.id)).toMatchObject([
      { ticketId: incident.id, ticketType: 'INCIDENT', event: 'CREATED', to: 'OPEN', actor: admin.email },
    ]);
    expect((await historyOf(client, admin.auth, incident.id))[0]?.timestamp).toBe(incident.createdAt);
    expect(await messagesOf(client, admin.auth, incident.id)).toMatchObject([
      { ticketId: incident.id, kind: 'SYSTEM', text: `Incident created by ${admin.email}`, actor: admin.email },
    ]);
  });

  it('shows incidents in the unified ticket list as they change', async () => {
    const incident = await createIncident(client, admin.auth, { assignedToEmail: 'sre@example.com' });
    await client.request('PUT', `${INCIDENTS}/${incident.id}`, { status: 'MITIGATED', summary: 'Renamed' }, admin.auth);
    const tickets = await client.request('GET', '/api/v1/tickets?type=INCIDENT', undefined, admin.auth);
    expect(tickets.status).toBe(200);
    expect(tickets.body.data[0]).toMatchObject({
      id: incident.id,
      type: 'INCIDENT',
      summary: 'Renamed',
      priority: 'HIGH',
      status: 'MITIGATED',
      assignedTo: 'sre@example.com',
      createdAt: incident.createdAt,
    });
  });

  it('reports one message per bad field on create', async () => {
    const missing = await client.request('POST', INCIDENTS, { description: 'no summary' }, admin.auth);
    expect(missing.status).toBe(400);
    expect(missing.body.success).toBe(false);
    expect(missing.body.errors).toHaveLength(2);
    expect(missing.body.errors.map((error: string) => error.split(':')[0]).sort()).toEqual(['priority', 'summary']);

    const invalid = await client.request(
      'POST',
      INCIDENTS,
      { summary: 'x', priority: 'URGENT', status: 'DONE', assignedToEmail: 'not-an-email', region: 7 },
      admin.auth,
    );
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.map((error: string) => error.split(':')[0]).sort()).toEqual([
      'assignedToEmail',
      'priority',
      'region',
      'status',
    ]);

    const blank = await client.request('POST', INCIDENTS, { summary: '   ', priority: 'LOW' }, admin.auth);
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual([expect.stringMatching(/^summary: /)]);

    const malformed = await client.request('POST', INCIDENTS, '{"summary": ', admin.auth);
    expect(malformed.status).toBe(400);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of ['INC-20000101-0001', 'not-an-incident', 'INC-1']) {
      const reply = await client.request('GET', `${INCIDENTS}/${id}`, undefined, admin.auth);
      expect(reply.status, id).toBe(404);
      expect(reply.body).toMatchObject({ success: false, message: 'Incident not found' });
    }
  });

  it('assigns an incident only to a member of its workspace', async () => {
    const stranger = await client.request('POST', INCIDENTS, { ...FULL, assignedToEmail: other.email }, admin.auth);
    expect(stranger.status).toBe(400);
    expect(stranger.body.errors).toEqual([`assignedToEmail: ${other.email} is not a member of this workspace`]);
    const incident = await createIncident(client, admin.auth);
    const update = await client.request(
      'PUT',
      `${INCIDENTS}/${incident.id}`,
      { assignedToEmail: 'nobody@example.com', summary: 'Not half-written' },
      admin.auth,
    );
    expect(update.status).toBe(400);
    const unchanged = await client.request('GET', `${INCIDENTS}/${incident.id}`, undefined, admin.auth);
    expect(unchanged.body.data).toMatchObject({ assignedToEmail: null, summary: incident.summary });
  });

  it('changes only the given fields and records each change', async () => {
    const incident = await createIncident(client, admin.auth, {
      assignedToEmail: 'a@example.com',
      region: 'us-east-1',
    });
    const reply = await client.request(
      'PUT',
      `${INCIDENTS}/${incident.id}`,
      {
        status: 'ACKNOWLEDGED',
        priority: 'CRITICAL',
        assignedToEmail: 'b@example.com',
        impactSummary: 'EU only',
        region: null,
      },
      admin.auth,
    );
    expect(reply.status, reply.text).toBe(200);
    const updated = reply.body.data;
    expect(updated).toMatchObject({
      id: incident.id,
      summary: incident.summary,
      status: 'ACKNOWLEDGED',
      priority: 'CRITICAL',
      assignedToEmail: 'b@example.com',
      impactSummary: 'EU only',
      region: null,
      createdAt: incident.createdAt,
      resolvedAt: null,
    });
    expect(updated.acknowledgedAt).toBe(updated.updatedAt);
    expect(updated.updatedAt > incident.updatedAt).toBe(true);

    const history = (await historyOf(client, admin.auth, incident.id)).slice(1);
    expect(history).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ event: 'STATUS_CHANGE', from: 'OPEN', to: 'ACKNOWLEDGED', actor: admin.email }),
        expect.objectContaining({ event: 'PRIORITY_CHANGE', from: 'HIGH', to: 'CRITICAL' }),
        expect.objectContaining({ event: 'ASSIGNED', from: 'a@example.com', to: 'b@example.com' }),
        expect.objectContaining({ event: 'FIELD_CHANGE', field: 'impactSummary', from: null, to: 'EU only' }),
        expect.objectContaining({ event: 'FIELD_CHANGE', field: 'region', from: 'us-east-1', to: null }),
      ]),
    );
    expect(history).toHaveLength(5);
    expect(history.every((event) => event.timestamp === updated.updatedAt)).toBe(true);

    const messages = (await messagesOf(client, admin.auth, incident.id)).slice(1);
    expect(messages.map((message) => [message.kind, message.text]).sort()).toEqual([
      ['ASSIGNMENT', `Reassigned from a@example.com to b@example.com by ${admin.email}`],
      ['PRIORITY_CHANGE', `Priority changed from HIGH to CRITICAL by ${admin.email}`],
      ['STATUS_CHANGE', `Status changed from OPEN to ACKNOWLEDGED by ${admin.email}`],
    ]);
    expect(messages.every((message) => message.actor === admin.email && message.createdAt)).toBe(true);
  });

  it('writes nothing when every given value equals the current one', async () => {
    const incident = await createIncident(client, admin.auth, { environment: 'staging' });
    const reply = await client.request(
      'PUT',
      `${INCIDENTS}/${incident.id}`,
      { summary: incident.summary, priority: 'HIGH', status: 'OPEN', environment: 'staging', region: null },
      admin.auth,
    );
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual(incident);
    expect(await historyOf(client, admin.auth, incident.id)).toHaveLength(1);
    expect(await messagesOf(client, admin.auth, incident.id)).toHaveLength(1);
  });

  it('keeps acknowledgedAt after the first acknowledgement and clears resolvedAt on reopening', async () => {
    const incident = await createIncident(client, admin.auth);
    const put = (body: unknown) => client.request('PUT', `${INCIDENTS}/${incident.id}`, body, admin.auth);
    const acknowledged = (await put({ status: 'ACKNOWLEDGED' })).body.data;
    const mitigated = (await put({ status: 'MITIGATED' })).body.data;
    expect(mitigated.acknowledgedAt).toBe(acknowledged.acknowledgedAt);
    const resolved = (await put({ status: 'RESOLVED' })).body.data;
    expect(resolved).toMatchObject({ resolvedAt: resolved.updatedAt, resolvedBy: admin.email });
    const closed = (await put({ status: 'CLOSED' })).body.data;
    expect(closed.resolvedAt).toBe(resolved.resolvedAt);
    const reopened = (await put({ status: 'OPEN' })).body.data;
    expect(reopened).toMatchObject({
      status: 'OPEN',
      resolvedAt: null,
      resolvedBy: null,
      acknowledgedAt: acknowledged.acknowledgedAt,
    });
  });

  it('refuses an empty or invalid update with 400 and an unknown incident with 404', async () => {
    const incident = await createIncident(client, admin.auth);
    const empty = await client.request('PUT', `${INCIDENTS}/${incident.id}`, {}, admin.auth);
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toHaveLength(1);
    const unknownOnly = await client.request('PUT', `${INCIDENTS}/${incident.id}`, { severity: 'SEV1' }, admin.auth);
    expect(unknownOnly.status).toBe(400);
    const invalid = await client.request(
      'PUT',
      `${INCIDENTS}/${incident.id}`,
      { status: 'resolved', priority: null, summary: '' },
      admin.auth,
    );
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.map((error: string) => error.split(':')[0]).sort()).toEqual([
      'priority',
      'status',
      'summary',
    ]);
    const unknown = await client.request('PUT', `${INCIDENTS}/INC-20000101-0001`, { summary: 'x' }, admin.auth);
    expect(unknown.status).toBe(404);
  });

  it('deletes an incident with its comments and messages and keeps its history', async () => {
    const incident = await createIncident(client, admin.auth);
    const commented = await client.request(
      'POST',
      `${INCIDENTS}/comment`,
      { ticketId: incident.id, content: 'Rolling back' },
      admin.auth,
    );
    expect(commented.status).toBe(201);
    await client.request('PUT', `${INCIDENTS}/${incident.id}`, { status: 'INVESTIGATION' }, admin.auth);

    const deleted = await client.request('DELETE', `${INCIDENTS}/${incident.id}`, undefined, admin.auth);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ success: true, data: { id: incident.id } });

    expect((await client.request('GET', `${INCIDENTS}/${incident.id}`, undefined, admin.auth)).status).toBe(404);
    expect((await client.request('GET', `${INCIDENTS}/comment/${incident.id}`, undefined, admin.auth)).status).toBe(
      404,
    );
    expect((await client.request('DELETE', `${INCIDENTS}/${incident.id}`, undefined, admin.auth)).status).toBe(404);

    const { ports: runtime } = client.stack;
    const leftovers = await runtime.table.doc.send(
      new QueryCommand({
        TableName: runtime.table.name,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': incidentChildPartition(workspaceId(), incident.id) },
      }),
    );
    expect(leftovers.Items).toEqual([]);

    const history = await historyOf(client, admin.auth, incident.id);
    expect(history.map((event) => event.event)).toEqual(['CREATED', 'COMMENT_ADDED', 'STATUS_CHANGE', 'DELETED']);
    expect(history.at(-1)).toMatchObject({ from: 'INVESTIGATION', actor: admin.email });
  });

  it('deletes the analyses of the incident and their reports', async () => {
    const incident = await createIncident(client, admin.auth);
    const { table } = client.stack.ports;
    const analysisId = client.stack.ports.ids.sortable();
    const analysis = {
      pk: `WS#${workspaceId()}#ANALYSIS`,
      sk: analysisId,
      gsi2pk: incidentAnalysisPartition(workspaceId(), incident.id),
      gsi2sk: `COMPLETE#${analysisId}`,
      type: 'ANALYSIS',
      workspaceId: workspaceId(),
      incidentId: incident.id,
      status: 'COMPLETE',
    };
    const report = { pk: `WS#${workspaceId()}#ANALYSIS#${analysisId}`, sk: 'REPORT#1', type: 'ANALYSIS_REPORT' };
    await table.doc.send(
      new BatchWriteCommand({
        RequestItems: { [table.name]: [analysis, report].map((Item) => ({ PutRequest: { Item } })) },
      }),
    );

    expect((await client.request('DELETE', `${INCIDENTS}/${incident.id}`, undefined, admin.auth)).status).toBe(200);
    const read = await table.doc.send(
      new BatchGetCommand({
        RequestItems: { [table.name]: { Keys: [analysis, report].map(({ pk, sk }) => ({ pk, sk })) } },
      }),
    );
    expect(read.Responses?.[table.name]).toEqual([]);
  });

  it("hides one workspace's incidents from another", async () => {
    const incident = await createIncident(client, admin.auth);
    const path = `${INCIDENTS}/${incident.id}`;
    const attempts = [
      await client.request('GET', path, undefined, other.auth),
      await client.request('PUT', path, { summary: 'hijacked' }, other.auth),
      await client.request('DELETE', path, undefined, other.auth),
      await client.request('POST', `${INCIDENTS}/comment`, { ticketId: incident.id, content: 'hello' }, other.auth),
      await client.request('GET', `${INCIDENTS}/comment/${incident.id}`, undefined, other.auth),
      await client.request('GET', `${INCIDENTS}/message/${incident.id}`, undefined, other.auth),
      await client.request('POST', `${INCIDENTS}/resolve/${incident.id}`, undefined, other.auth),
      await client.request('POST', `${INCIDENTS}/generate-pdf`, { incidentId: incident.id }, other.auth),
    ];
    expect(attempts.map((reply) => reply.status)).toEqual([404, 404, 404, 404, 404, 404, 404, 404]);

    const list = await client.request('GET', INCIDENTS, undefined, other.auth);
    expect(list.body.data.map((item: { id: string }) => item.id)).not.toContain(incident.id);
    const untouched = await client.request('GET', path, undefined, admin.auth);
    expect(untouched.body.data).toEqual(incident);
  });
});
