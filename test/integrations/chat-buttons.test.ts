import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatSignatureHeaders } from '#lib/integrations/chat/chat-signature.ts';
import { joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startFakeIntegrationProviders, type FakeIntegrationProviders } from '../support/fake-integration-providers.ts';
import { INCIDENTS, createIncident } from '../support/incidents.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

const V1 = '/api/v1';
const SECRET = 'slack-signing-secret-of-acme-0123456789';

let client: TestClient;
let fakes: FakeIntegrationProviders;
let admin: SignedIn;
let engineer: SignedIn;
let viewer: SignedIn;
let interactionsPath: string;

beforeAll(async () => {
  fakes = await startFakeIntegrationProviders();
  client = await startTestStack(':memory:', undefined, {
    workers: true,
    integrationProviders: fakes.providersConfig(),
  });
  admin = await signUpBusiness(client);
  engineer = await joinAs(client, admin, 'ENGINEER');
  viewer = await joinAs(client, admin, 'VIEWER');
  const registered = await client.request(
    'POST',
    `${V1}/integrations/chat/webhook`,
    { webhookUrl: fakes.webhookUrl('ops'), signingSecret: SECRET },
    admin.auth,
  );
  expect(registered.status, registered.text).toBe(201);
  expect(registered.text).not.toContain(SECRET);
  expect(registered.body.data).toMatchObject({ buttons: true });
  const url = new URL(registered.body.data.interactionsUrl);
  interactionsPath = `${url.pathname}${url.search}`;
  expect(url.pathname).toBe(`${V1}/integrations/chat/interactions`);
});

afterAll(async () => {
  await client?.stack.stop();
  await fakes?.stop();
});

let pressCount = 0;

/** A press as Slack posts it: form-encoded `payload`, signed at `at` with `secret`; `replyTo` names the fake's hook. */
const press = (
  chatUserId: string,
  action: string,
  incidentId: string,
  {
    secret = SECRET,
    at = new Date(),
    replyTo = `reply-${++pressCount}`,
    actionTs = `${Date.now()}.${pressCount}`,
  } = {},
) => {
  const payload = {
    type: 'block_actions',
    user: { id: chatUserId },
    team: { id: 'T1' },
    response_url: fakes.webhookUrl(replyTo),
    message: { blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'the page' } }, { type: 'actions' }] },
    actions: [{ action_id: action, value: incidentId, action_ts: actionTs }],
  };
  const body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return {
    replyTo,
    send: () =>
      client.request('POST', interactionsPath, body, {
        'content-type': 'application/x-www-form-urlencoded',
        ...chatSignatureHeaders(secret, body, at),
      }),
  };
};

const link = (chatUserId: string, memberId: string, by: SignedIn, linkToken?: string) =>
  client.request('PUT', `${V1}/integrations/chat/users/${chatUserId}`, { memberId, linkToken }, by.auth);

const incidentNow = async (id: string) =>
  (await client.request('GET', `${INCIDENTS}/${id}`, undefined, admin.auth)).body.data;

describe('buttons in chat', () => {
  it('puts Acknowledge, Resolve and Escalate buttons on the chat page', async () => {
    const incident = await createIncident(client, admin.auth);
    await client.stack.deliveriesIdle();
    const page = fakes.chatMessages('ops').find((message) => message.text?.includes(incident.id));
    const actions = page?.blocks.find((block: { type: string }) => block.type === 'actions');
    expect(actions.elements.map((button: { action_id: string; value: string }) => button.action_id)).toEqual([
      'acknowledge',
      'resolve',
      'escalate',
    ]);
    expect(actions.elements[0].value).toBe(incident.id);
  });

  it('acknowledges as the linked member, updates the message in place, and acts once on a retry', async () => {
    expect((await link('UENG', engineer.user.id, admin)).status).toBe(200);
    const incident = await createIncident(client, admin.auth);
    const pressed = press('UENG', 'acknowledge', incident.id);
    const reply = await pressed.send();
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data.outcome).toBe('ACKNOWLEDGED');
    const now = await incidentNow(incident.id);
    expect(now.status).toBe('ACKNOWLEDGED');
    expect(now.acknowledgedBy).toBe(engineer.email);
    const [update] = fakes.chatMessages(pressed.replyTo);
    expect(update.replace_original).toBe(true);
    expect(update.text).toMatch(/^Acknowledged by .+ at \d\d:\d\d/);
    expect(update.blocks.at(-1)).toMatchObject({ type: 'context' });

    const retried = await pressed.send();
    expect(retried.body.data.outcome).toBe('ALREADY_HANDLED');
    expect(fakes.chatMessages(pressed.replyTo)).toHaveLength(1);
  });

  it('resolves and escalates as the linked member, and says so when there is nothing to do', async () => {
    const incident = await createIncident(client, admin.auth);
    const escalated = await press('UENG', 'escalate', incident.id).send();
    expect(escalated.status, escalated.text).toBe(200);
    expect(['ESCALATED', 'NOT_DONE']).toContain(escalated.body.data.outcome);
    const resolving = press('UENG', 'resolve', incident.id);
    expect((await resolving.send()).body.data.outcome).toBe('RESOLVED');
    const now = await incidentNow(incident.id);
    expect(now).toMatchObject({ status: 'RESOLVED', resolvedBy: engineer.email });
    const [update] = fakes.chatMessages(resolving.replyTo);
    expect(update.blocks.some((block: { type: string }) => block.type === 'actions')).toBe(false);
    const late = press('UENG', 'acknowledge', incident.id);
    expect((await late.send()).body.data.outcome).toBe('NOT_DONE');
    expect(fakes.chatMessages(late.replyTo)).toEqual([expect.objectContaining({ response_type: 'ephemeral' })]);
  });

  it('answers a wrongly signed or a 6-minute-old press 401, changing nothing', async () => {
    const incident = await createIncident(client, admin.auth);
    const forged = await press('UENG', 'acknowledge', incident.id, { secret: 'another-secret-0123456789' }).send();
    expect(forged.status).toBe(401);
    const stale = await press('UENG', 'acknowledge', incident.id, { at: new Date(Date.now() - 6 * 60_000) }).send();
    expect(stale.status).toBe(401);
    expect((await incidentNow(incident.id)).status).toBe('OPEN');
  });

  it("refuses a VIEWER's press, telling them privately", async () => {
    expect((await link('UVIEW', viewer.user.id, admin)).status).toBe(200);
    const incident = await createIncident(client, admin.auth);
    const pressed = press('UVIEW', 'resolve', incident.id);
    const reply = await pressed.send();
    expect(reply.body.data.outcome).toBe('REFUSED');
    expect((await incidentNow(incident.id)).status).toBe('OPEN');
    expect(fakes.chatMessages(pressed.replyTo)).toEqual([
      expect.objectContaining({ response_type: 'ephemeral', text: expect.stringContaining('VIEWER') }),
    ]);
  });

  it('changes nothing for an unlinked user, whose private link links them when they open it signed in', async () => {
    const incident = await createIncident(client, admin.auth);
    const pressed = press('UNEW', 'acknowledge', incident.id);
    expect((await pressed.send()).body.data.outcome).toBe('NOT_LINKED');
    expect((await incidentNow(incident.id)).status).toBe('OPEN');
    const [answer] = fakes.chatMessages(pressed.replyTo);
    expect(answer.response_type).toBe('ephemeral');
    const url = new URL(/https?:\/\/\S+/.exec(answer.text)?.[0] ?? '');
    expect(url.pathname).toBe('/link-chat');
    const token = url.searchParams.get('token') ?? '';

    expect((await link('UNEW', engineer.user.id, viewer, token)).status).toBe(403);
    expect((await link('UNEW', viewer.user.id, viewer)).status).toBe(400);
    expect((await link('UOTHER', viewer.user.id, viewer, token)).status).toBe(400);
    const linked = await link('UNEW', viewer.user.id, viewer, token);
    expect(linked.status, linked.text).toBe(200);
    expect(linked.body.data).toMatchObject({ chatUserId: 'UNEW', memberId: viewer.user.id });
    expect((await press('UNEW', 'acknowledge', incident.id).send()).body.data.outcome).toBe('REFUSED');
    const page = await client.request('GET', '/link-chat');
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });
});
