import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { INCIDENTS, createIncident } from '../support/incidents.ts';

const stakeholderMessage = async (client: TestClient, admin: SignedIn, priority: string): Promise<string> => {
  const { id } = await createIncident(client, admin.auth, { summary: `Search is slow (${priority})`, priority });
  const reply = await client.request('GET', `${INCIDENTS}/resolve/ai/stakeholder/${id}`, undefined, admin.auth);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data.message;
};

describe('stakeholder message: priorities in the words of the spec', () => {
  let client: TestClient;
  let admin: SignedIn;
  beforeAll(async () => {
    client = await startTestStack();
    admin = await signUpBusiness(client);
  });
  afterAll(() => client.stack.stop());

  it('says a LOW incident has no effect on customers (spec: minimal impact with no customer effect)', async () => {
    const message = await stakeholderMessage(client, admin, 'LOW');
    expect(message).toMatch(/A minor problem of one of our services, lasting .+, with no effect on customers\./);
    expect(message).not.toMatch(/little effect/);
  });

  it('says a MEDIUM incident is degraded service, and names no customer effect for higher priorities', async () => {
    expect(await stakeholderMessage(client, admin, 'MEDIUM')).toMatch(
      /A partial disruption of one of our services, lasting .+, with the service slower or less reliable than usual\./,
    );
    const critical = await stakeholderMessage(client, admin, 'CRITICAL');
    expect(critical).toMatch(/A severe outage of one of our services, lasting [^,.]+\./);
    expect(critical).not.toMatch(/no effect on customers/);
  });
});
