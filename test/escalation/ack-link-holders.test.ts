import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAckLink } from '#lib/notifications/ack-token.ts';
import { joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { INCIDENTS, createIncident } from '../support/incidents.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

const V1 = '/api/v1';
let client: TestClient;
let admin: SignedIn;

beforeAll(async () => {
  client = await startTestStack();
  admin = await signUpBusiness(client, { businessName: 'Holders' });
});

afterAll(async () => {
  await client?.stack.stop();
});

/** The path of an e-mail acknowledge link made for `member`, as a page to them would carry it. */
const linkFor = async (member: SignedIn, incidentId: string, linkId: string): Promise<string> => {
  const token = await signAckLink(client.stack.ports.signingKeys, {
    linkId,
    workspaceId: admin.user.businessId as string,
    incidentId,
    by: member.email,
    userId: member.user.id,
    channel: 'email',
    recipient: member.email,
    event: 'OPENED',
    eventAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + 60 * 60_000).toISOString(),
  });
  return `${V1}/ack/${token}`;
};

const statusOf = async (incidentId: string): Promise<string> =>
  (await client.request('GET', `${INCIDENTS}/${incidentId}`, undefined, admin.auth)).body.data.status;

describe('acknowledge links checked against the holder when used', () => {
  it("a VIEWER's link answers 403 and leaves the incident OPEN", async () => {
    const viewer = await joinAs(client, admin, 'VIEWER');
    const incident = await createIncident(client, admin.auth);
    const link = await linkFor(viewer, incident.id, 'viewer-link');
    expect((await client.request('GET', link)).status).toBe(403);
    const reply = await client.request('POST', link);
    expect(reply.status, reply.text).toBe(403);
    expect(await statusOf(incident.id)).toBe('OPEN');
  });

  it("a removed member's and a demoted member's earlier links answer 403 and change nothing", async () => {
    const removed = await joinAs(client, admin, 'ENGINEER');
    const demoted = await joinAs(client, admin, 'ENGINEER');
    const incident = await createIncident(client, admin.auth);
    const removedLink = await linkFor(removed, incident.id, 'removed-link');
    const demotedLink = await linkFor(demoted, incident.id, 'demoted-link');
    const gone = await client.request('DELETE', `${V1}/business/members/${removed.user.id}`, undefined, admin.auth);
    expect(gone.status, gone.text).toBe(200);
    const changed = await client.request(
      'PATCH',
      `${V1}/business/members/${demoted.user.id}`,
      { role: 'VIEWER' },
      admin.auth,
    );
    expect(changed.status, changed.text).toBe(200);
    for (const link of [removedLink, demotedLink]) {
      const reply = await client.request('POST', link);
      expect(reply.status, reply.text).toBe(403);
    }
    expect(await statusOf(incident.id)).toBe('OPEN');
  });

  it("a current ENGINEER's link still acknowledges", async () => {
    const engineer = await joinAs(client, admin, 'ENGINEER');
    const incident = await createIncident(client, admin.auth);
    const reply = await client.request('POST', await linkFor(engineer, incident.id, 'engineer-link'));
    expect(reply.status, reply.text).toBe(200);
    expect(await statusOf(incident.id)).toBe('ACKNOWLEDGED');
  });
});
