import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LambdaTimeoutError } from '#infra/local/lambda-context.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startFakeIntegrationProviders, type FakeIntegrationProviders } from '../support/fake-integration-providers.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { onCallFromNow } from '../support/on-call.ts';
import { V1, connect, registerChatWebhook } from './support.ts';

/** Opened at once, so that batches of four or more form (the queue's batch size is 5). */
const INCIDENTS = 7;

/**
 * A receiver outage with the stack's own notification settings (a batch of 5, 20 s): the chat webhook and the
 * video tool stop answering, so each event's chat post and war room wait out their 3 s. Handled one after
 * another, a batch of four or more such events outran the worker's timeout, and the whole batch failed.
 */
describe('notifications during a receiver outage', () => {
  let client: TestClient;
  let fakes: FakeIntegrationProviders;
  let admin: SignedIn;

  beforeAll(async () => {
    fakes = await startFakeIntegrationProviders();
    client = await startTestStack(':memory:', undefined, { integrationProviders: fakes.providersConfig() });
    admin = await signUpBusiness(client, { businessName: 'Outage Co' });
    const setup = await client.request(
      'POST',
      `${V1}/ims/setup`,
      { alertEmail: 'alerts@outage.example.com', timezone: 'UTC' },
      admin.auth,
    );
    expect(setup.status, setup.text).toBe(201);
    await onCallFromNow(client, admin, admin.user.id);
    await registerChatWebhook(client, admin, fakes, 'down');
    await connect(client, admin, 'videomeet');
    fakes.hang('/hooks/down');
    fakes.hang('/videomeet/api/meetings');
  });
  afterAll(async () => {
    await client?.stack.stop();
    await fakes?.stop();
  });

  it('tries every event on its first receive, within the worker timeout', async () => {
    const ids = await Promise.all(
      Array.from({ length: INCIDENTS }, async (_value, index) => {
        const created = await client.request(
          'POST',
          `${V1}/incident-ticket`,
          { summary: `Outage ${index}`, priority: 'CRITICAL' },
          admin.auth,
        );
        expect(created.status, created.text).toBe(201);
        return created.body.data.id as string;
      }),
    );
    const chatTried = async (id: string) => {
      const reply = await client.request('GET', `${V1}/incident-ticket/${id}/notifications`, undefined, admin.auth);
      return (reply.body.data as { channel: string; status: string }[]).some(
        ({ channel, status }) => channel === 'chat' && status === 'FAILED',
      );
    };
    for (let waited = 0; waited < 300; waited += 1) {
      if ((await Promise.all(ids.map(chatTried))).every(Boolean)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await Promise.all(ids.map(chatTried))).toEqual(ids.map(() => true));
    const timeouts = client.stack.deliveryErrors.filter(({ error }) => error instanceof LambdaTimeoutError);
    expect(timeouts).toEqual([]);
  }, 60_000);
});
