import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeaders, joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { squash, textOf } from '../support/pdf-text.ts';
import { historyOf } from './support.ts';
import { INCIDENTS, createIncident } from '../support/incidents.ts';

const pdfText = async (client: TestClient, auth: Record<string, string>, incidentId: string): Promise<string> => {
  const response = await fetch(`${client.stack.url}${INCIDENTS}/generate-pdf`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ incidentId }),
  });
  expect(response.status).toBe(200);
  return squash(textOf(Buffer.from(await response.arrayBuffer())));
};

describe('resolving with a resolution and root cause', () => {
  let client: TestClient;
  let admin: SignedIn;
  let viewer: SignedIn;
  beforeAll(async () => {
    client = await startTestStack();
    admin = await signUpBusiness(client, { businessName: 'Resolving Co' });
    viewer = await joinAs(client, admin, 'VIEWER');
  });
  afterAll(() => client.stack.stop());

  const resolve = (id: string, body: unknown, auth: Record<string, string> = admin.auth) =>
    client.request('POST', `${INCIDENTS}/resolve/${id}`, body, auth);

  it('stores both, shows them in GET and prints them in the PDF', async () => {
    const incident = await createIncident(client, admin.auth, { summary: 'Queue consumers stalled' });
    expect(incident).toMatchObject({ resolution: null, rootCause: null });
    const resolved = await resolve(incident.id, {
      resolution: '  Restarted the consumers and drained **40k** messages.  ',
      rootCause: 'A poison message crashed every consumer that read it.',
    });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body.data).toMatchObject({
      status: 'RESOLVED',
      resolution: 'Restarted the consumers and drained **40k** messages.',
      rootCause: 'A poison message crashed every consumer that read it.',
    });
    const read = await client.request('GET', `${INCIDENTS}/${incident.id}`, undefined, admin.auth);
    expect(read.body.data).toMatchObject({
      resolution: resolved.body.data.resolution,
      rootCause: resolved.body.data.rootCause,
    });

    const text = await pdfText(client, admin.auth, incident.id);
    expect(text).toContain(squash('Resolution and root cause'));
    expect(text).toContain(squash('Restarted the consumers and drained 40k messages.'));
    expect(text).toContain(squash('A poison message crashed every consumer that read it.'));
  });

  it('resolves without a body as before, and keeps an earlier write-up when resolved again without one', async () => {
    const incident = await createIncident(client, admin.auth);
    expect((await resolve(incident.id, undefined)).body.data).toMatchObject({ status: 'RESOLVED', resolution: null });
    expect(await pdfText(client, admin.auth, incident.id)).not.toContain(squash('Resolution and root cause'));

    const written = await createIncident(client, admin.auth);
    await resolve(written.id, { rootCause: 'Expired certificate' });
    await client.request('PUT', `${INCIDENTS}/${written.id}`, { status: 'INVESTIGATION' }, admin.auth);
    const again = await resolve(written.id, { resolution: '' });
    expect(again.body.data).toMatchObject({ status: 'RESOLVED', resolution: null, rootCause: 'Expired certificate' });
  });

  it('changes the write-up of a RESOLVED incident resolved again, with no event, and writes nothing for the same one', async () => {
    const incident = await createIncident(client, admin.auth);
    const first = await resolve(incident.id, { resolution: 'Rolled back', rootCause: 'A bad deploy' });
    const history = await historyOf(client, admin.auth, incident.id);

    const corrected = await resolve(incident.id, { rootCause: 'A bad config flag in the deploy' });
    expect(corrected.status, corrected.text).toBe(200);
    expect(corrected.body.data).toEqual({
      ...first.body.data,
      rootCause: 'A bad config flag in the deploy',
      updatedAt: expect.any(String),
    });
    expect(corrected.body.data.updatedAt > first.body.data.updatedAt).toBe(true);
    const read = await client.request('GET', `${INCIDENTS}/${incident.id}`, undefined, admin.auth);
    expect(read.body.data).toEqual(corrected.body.data);
    expect(await historyOf(client, admin.auth, incident.id)).toEqual(history);

    const same = await resolve(incident.id, {
      resolution: 'Rolled back',
      rootCause: 'A bad config flag in the deploy',
    });
    expect(same.status, same.text).toBe(200);
    expect(same.body.data).toEqual(corrected.body.data);
  });

  it('refuses a bad body field by field and writes nothing', async () => {
    const incident = await createIncident(client, admin.auth);
    const bad = await resolve(incident.id, { resolution: 'x'.repeat(10_001), rootCause: 42 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((error: string) => error.split(':')[0]).sort()).toEqual(['resolution', 'rootCause']);
    const read = await client.request('GET', `${INCIDENTS}/${incident.id}`, undefined, admin.auth);
    expect(read.body.data).toMatchObject({ status: 'OPEN', resolution: null, rootCause: null });
  });

  it("answers 404 for another workspace's incident, 403 to a VIEWER and to a read-only key", async () => {
    const incident = await createIncident(client, admin.auth);
    const other = await signUpBusiness(client, { businessName: 'Other Co' });
    expect((await resolve(incident.id, { resolution: 'not mine' }, other.auth)).status).toBe(404);
    expect((await resolve(incident.id, { resolution: 'read only' }, viewer.auth)).status).toBe(403);
    const readKey = await apiKeyHeaders(client, admin, ['incidents:read']);
    expect((await resolve(incident.id, { resolution: 'read only' }, readKey)).status).toBe(403);
    const read = await client.request('GET', `${INCIDENTS}/${incident.id}`, undefined, admin.auth);
    expect(read.body.data).toMatchObject({ status: 'OPEN', resolution: null });
    const writeKey = await apiKeyHeaders(client, admin, ['incidents:write']);
    const resolved = await resolve(incident.id, { resolution: 'Fixed by the on-call bot' }, writeKey);
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body.data.resolution).toBe('Fixed by the on-call bot');
  });
});
