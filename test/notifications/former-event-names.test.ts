import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationEvent } from '#lib/incidents/notification-events.ts';
import { signAckLink } from '#lib/notifications/ack-token.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { createIncident } from '../support/incidents.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { team, type Team } from '../support/team.ts';
import { INCIDENTS, mailTo } from './support.ts';

/**
 * Until 2026-11-29 a raised priority was the `ESCALATED` event and an escalation `UNACKNOWLEDGED`. What was
 * queued, stored or mailed under those names before a deploy still works after it (docs/decisions.md).
 */
let client: TestClient;
let ops: Team;

beforeAll(async () => {
  client = await startTestStack(':memory:', undefined, { workers: true });
  ops = await team(client, 'Renamed');
});

afterAll(async () => {
  await client?.stack.stop();
});

const settled = async () => {
  await client.stack.workers?.idle();
  await client.stack.deliveriesIdle();
};

interface Sent {
  event: string;
  eventAt: string;
  channel: string;
  recipient: string;
  status: string;
  attempts: unknown[];
}

const notificationsAt = async (incidentId: string, at: string): Promise<Sent[]> => {
  const reply = await client.request('GET', `${INCIDENTS}/${incidentId}/notifications`, undefined, ops.admin.auth);
  expect(reply.status, reply.text).toBe(200);
  return (reply.body.data as Sent[]).filter(({ eventAt }) => eventAt === at);
};

const escalationMessage = (incidentId: string, event: string, at: string) => ({
  workspaceId: ops.admin.user.businessId,
  incidentId,
  event,
  at,
  priority: 'HIGH',
  escalation: 1,
});

describe('notification events queued or stored under their former names', () => {
  it('delivers a message queued as UNACKNOWLEDGED as the ESCALATION it is, rather than dead-lettering it', async () => {
    const incident = await createIncident(client, ops.admin.auth, { summary: 'Checkout down' });
    await settled();
    const at = new Date().toISOString();
    await client.stack.ports.queue.send('notifications', [escalationMessage(incident.id, 'UNACKNOWLEDGED', at)]);
    await settled();

    const sent = await notificationsAt(incident.id, at);
    expect(sent.map(({ recipient }) => recipient)).toContain(ops.onCall.email);
    expect(new Set(sent.map(({ event }) => event))).toEqual(new Set(['ESCALATION']));
  });

  it('answers a delivery stored as UNACKNOWLEDGED as ESCALATION, pages its recipient no second time, and takes its acknowledge link', async () => {
    const incident = await createIncident(client, ops.admin.auth, { summary: 'Search slow' });
    await settled();
    const at = new Date().toISOString();
    const workspaceId = ops.admin.user.businessId ?? '';
    const recipient = ops.onCall.email.toLowerCase();
    // The delivery as the worker stored it before the rename: its key and its event under the former name.
    await client.stack.ports.table.doc.send(
      new PutCommand({
        TableName: client.stack.ports.table.name,
        Item: {
          pk: workspaceKey(workspaceId, 'NOTIFY', incident.id),
          sk: `${at}#UNACKNOWLEDGED#email#${encodeURIComponent(recipient)}`,
          type: 'NOTIFICATION_DELIVERY',
          workspaceId,
          incidentId: incident.id,
          event: 'UNACKNOWLEDGED',
          eventAt: at,
          channel: 'email',
          recipient,
          status: 'SENT',
          attempts: [{ at, outcome: 'SENT' }],
          createdAt: at,
          updatedAt: at,
        },
      }),
    );
    const mailsBefore = (await mailTo(client, ops.onCall.email)).length;

    await client.stack.ports.queue.send('notifications', [escalationMessage(incident.id, 'ESCALATION', at)]);
    await settled();

    const sent = await notificationsAt(incident.id, at);
    const toOnCall = sent.filter((delivery) => delivery.channel === 'email' && delivery.recipient === recipient);
    expect(toOnCall).toEqual([
      expect.objectContaining({ event: 'ESCALATION', status: 'SENT', attempts: [expect.anything()] }),
    ]);
    expect(await mailTo(client, ops.onCall.email)).toHaveLength(mailsBefore);
    // The others of the event were paged as usual.
    expect(sent.some((delivery) => delivery.recipient === ops.alertEmail && delivery.status === 'SENT')).toBe(true);

    // The stored page's acknowledge link, mailed before the rename, names its event by the former name.
    const token = await signAckLink(client.stack.ports.signingKeys, {
      linkId: `former-name-${incident.id}`,
      workspaceId,
      incidentId: incident.id,
      by: ops.onCall.email,
      userId: ops.onCall.user.id,
      channel: 'email',
      recipient,
      event: 'UNACKNOWLEDGED' as NotificationEvent,
      eventAt: at,
      expiresAt: new Date(Date.now() + 60 * 60_000).toISOString(),
    });
    expect((await client.request('POST', `/api/v1/ack/${token}`)).status).toBe(200);
    const [acknowledged] = (await notificationsAt(incident.id, at)).filter(
      (delivery) => delivery.recipient === recipient,
    );
    expect(acknowledged).toMatchObject({ event: 'ESCALATION', acknowledgedAt: expect.any(String) });
  });
});
