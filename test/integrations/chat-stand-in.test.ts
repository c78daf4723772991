import { afterAll, beforeAll, expect, it } from 'vitest';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { INCIDENTS, createIncident } from '../support/incidents.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

const SECRET = 'local-chat-app-signing-secret';

let client: TestClient;
let admin: SignedIn;

beforeAll(async () => {
  client = await startTestStack(':memory:', undefined, { workers: true });
  admin = await signUpBusiness(client);
});

afterAll(async () => {
  await client?.stack.stop();
});

it('runs the whole chat path on one machine: the page lands in the stand-in, whose signed press acknowledges', async () => {
  const webhookUrl = `${client.stack.url}/_local/chat/hooks/ops`;
  const registered = await client.request(
    'POST',
    '/api/v1/integrations/chat/webhook',
    { webhookUrl, signingSecret: SECRET },
    admin.auth,
  );
  expect(registered.status, registered.text).toBe(201);
  const linked = await client.request(
    'PUT',
    '/api/v1/integrations/chat/users/ULOCAL',
    { memberId: admin.user.id },
    admin.auth,
  );
  expect(linked.status, linked.text).toBe(200);
  const incident = await createIncident(client, admin.auth);
  await client.stack.deliveriesIdle();
  const pages = (await client.request('GET', '/_local/chat/hooks/ops')).body.data;
  expect(pages.at(-1).blocks.at(-1)).toMatchObject({ type: 'actions' });

  const pressed = await client.request('POST', '/_local/chat/press', {
    workspaceId: admin.user.businessId,
    signingSecret: SECRET,
    chatUserId: 'ULOCAL',
    action: 'acknowledge',
    incidentId: incident.id,
  });
  expect(pressed.status, pressed.text).toBe(200);
  expect(pressed.body.data.outcome).toBe('ACKNOWLEDGED');
  const now = (await client.request('GET', `${INCIDENTS}/${incident.id}`, undefined, admin.auth)).body.data;
  expect(now.acknowledgedBy).toBe(admin.email);
  const replies = (await client.request('GET', '/_local/chat/hooks/replies')).body.data;
  expect(replies).toEqual([
    expect.objectContaining({ replace_original: true, text: expect.stringMatching(/^Acknowledged by/) }),
  ]);
});
