import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { INCIDENTS } from '../support/incidents.ts';

const UNKNOWN = 'INC-20200101-0001';

/** A 404 for an incident that is not there names the request field the id came in, as every field message does. */
describe('an unknown incident, named by the field it came in', () => {
  let client: TestClient;
  let admin: SignedIn;
  beforeAll(async () => {
    client = await startTestStack();
    admin = await signUpBusiness(client);
  });
  afterAll(() => client.stack.stop());

  const errorsOf = async (method: string, path: string, body?: unknown): Promise<string[]> => {
    const reply = await client.request(method, path, body, admin.auth);
    expect(reply.status, reply.text).toBe(404);
    return reply.body.errors;
  };

  it('ticketId for comments and the message thread', async () => {
    const named = `ticketId: no incident ${UNKNOWN} in this workspace`;
    expect(await errorsOf('POST', `${INCIDENTS}/comment`, { ticketId: UNKNOWN, content: 'Looking' })).toEqual([named]);
    expect(await errorsOf('GET', `${INCIDENTS}/comment/${UNKNOWN}`)).toEqual([named]);
    expect(await errorsOf('GET', `${INCIDENTS}/message/${UNKNOWN}`)).toEqual([named]);
  });

  it('incidentId for the analysis engine and playbook matching, id for the incident routes', async () => {
    const named = `incidentId: no incident ${UNKNOWN} in this workspace`;
    expect(await errorsOf('POST', '/api/v1/assistant/analyse', { incidentId: UNKNOWN })).toEqual([named]);
    expect(await errorsOf('GET', `/api/v1/assistant/analysis/${UNKNOWN}`)).toEqual([named]);
    expect(await errorsOf('POST', '/api/v1/playbooks/match', { incidentId: UNKNOWN })).toEqual([named]);
    expect(await errorsOf('GET', `${INCIDENTS}/${UNKNOWN}`)).toEqual([`id: no incident ${UNKNOWN} in this workspace`]);
  });
});
