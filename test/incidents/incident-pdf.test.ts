import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incidentAnalysisPartition } from '#lib/incidents/analysis-item.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { squash, textOf } from '../support/pdf-text.ts';
import { INCIDENTS, createIncident } from '../support/incidents.ts';

const download = async (
  client: TestClient,
  path: string,
  body: unknown,
  auth: Record<string, string>,
  accept = '*/*',
) => {
  const response = await fetch(`${client.stack.url}${path}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', accept },
    body: JSON.stringify(body),
  });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
};

describe('incident PDF export', () => {
  let client: TestClient;
  let admin: SignedIn;
  beforeAll(async () => {
    client = await startTestStack();
    admin = await signUpBusiness(client, { businessName: 'Globex Reliability' });
  });
  afterAll(() => client.stack.stop());

  it('exports the incident with its comments, thread and workspace name', async () => {
    const incident = await createIncident(client, admin.auth, {
      summary: 'Search cluster out of disk',
      techDescription: 'Shard relocation stalled on node es-7',
    });
    await client.request(
      'POST',
      `${INCIDENTS}/comment`,
      { ticketId: incident.id, content: 'Freed **200 GB** on es-7' },
      admin.auth,
    );
    await client.request('POST', `${INCIDENTS}/resolve/${incident.id}`, undefined, admin.auth);

    const { response, bytes } = await download(
      client,
      `${INCIDENTS}/generate-pdf`,
      { incidentId: incident.id },
      admin.auth,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${incident.id}.pdf"`);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = squash(textOf(bytes));
    expect(text).toContain(squash('Search cluster out of disk'));
    expect(text).toContain(squash(incident.id));
    expect(text).toContain(squash('Globex Reliability'));
    expect(text).toContain(squash('Shard relocation stalled on node es-7'));
    expect(text).toContain(squash('Freed 200 GB on es-7'));
    expect(text).toContain(squash('Status changed from OPEN to RESOLVED'));
    expect(text).not.toContain(squash(`Incident resolved by ${admin.email}`));
  });

  // API Gateway decodes a base64 answer only for a client whose first Accept type is a binary media type.
  it.each([
    ['curl and fetch', '*/*'],
    ['a browser', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
    ['a client asking for JSON first', 'application/json, application/pdf'],
  ])('answers the PDF as bytes to %s', async (_client, accept) => {
    const incident = await createIncident(client, admin.auth, { summary: 'Bytes whatever the client accepts' });
    const { response, bytes } = await download(
      client,
      `${INCIDENTS}/generate-pdf`,
      { incidentId: incident.id },
      admin.auth,
      accept,
    );
    expect(response.status).toBe(200);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('prints the note of the top-level route and the latest completed analysis', async () => {
    const incident = await createIncident(client, admin.auth, { summary: 'Login storms after deploy' });
    const { table, ids } = client.stack.ports;
    const analysisId = ids.sortable();
    await table.doc.send(
      new PutCommand({
        TableName: table.name,
        Item: {
          pk: `WS#${admin.user.businessId}#ANALYSIS`,
          sk: analysisId,
          gsi2pk: incidentAnalysisPartition(admin.user.businessId ?? '', incident.id),
          gsi2sk: `COMPLETE#${analysisId}`,
          type: 'ANALYSIS',
          workspaceId: admin.user.businessId,
          incidentId: incident.id,
          status: 'COMPLETE',
          hypothesis: 'Session cache was flushed by the deploy',
          rootCause: 'Cache warm-up skipped in the release pipeline',
          impactAssessment: 'Users were logged out',
          contributingFactors: ['No canary'],
          remediationOptions: ['Restore warm-up step'],
          confidence: 0.86,
          completedAt: '2025-01-01T10:00:00.000Z',
        },
      }),
    );
    const { response, bytes } = await download(
      client,
      '/api/v1/generate-pdf',
      { id: incident.id, description: 'Prepared for the weekly review' },
      admin.auth,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${incident.id}.pdf"`);
    const text = squash(textOf(bytes));
    expect(text).toContain(squash('Login storms after deploy'));
    expect(text).toContain(squash('Prepared for the weekly review'));
    expect(text).toContain(squash('Cache warm-up skipped in the release pipeline'));
  });

  it('answers 404 for an unknown incident and 400 without an id', async () => {
    const unknown = await client.request(
      'POST',
      `${INCIDENTS}/generate-pdf`,
      { incidentId: 'INC-20000101-0001' },
      admin.auth,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, message: 'Incident not found' });
    expect((await client.request('POST', '/api/v1/generate-pdf', { id: 'nope' }, admin.auth)).status).toBe(404);
    const missing = await client.request('POST', `${INCIDENTS}/generate-pdf`, {}, admin.auth);
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([expect.stringMatching(/^incidentId: /)]);
    const missingTop = await client.request('POST', '/api/v1/generate-pdf', { description: 'x' }, admin.auth);
    expect(missingTop.status).toBe(400);
    expect(missingTop.body.errors).toEqual([expect.stringMatching(/^id: /)]);
  });
});
