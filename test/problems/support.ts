import { expect } from 'vitest';
import { joinAs, type SignedIn, signUpBusiness } from '../support/accounts.ts';
import { createIncident } from '../support/incidents.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

export const PROBLEMS = '/api/v1/problems';
export const UNKNOWN_ID = '01J0000000000000000000000Z';

/** Two workspaces (the admin's with a VIEWER), an incident in each, and the requests the problem tests repeat. */
export const startProblemsWorld = async () => {
  const client: TestClient = await startTestStack();
  const [admin, other] = await Promise.all([
    signUpBusiness(client),
    signUpBusiness(client, { businessName: 'Other Co' }),
  ]);
  const viewer = await joinAs(client, admin, 'VIEWER');
  // Incident ids count per workspace and day, so the other workspace's second incident has an id that
  // names nothing here.
  const incidentId: string = (await createIncident(client, admin.auth)).id;
  await createIncident(client, other.auth);
  const otherIncidentId: string = (await createIncident(client, other.auth)).id;

  const createProblem = async (body: Record<string, unknown>, as: SignedIn = admin) => {
    const reply = await client.request(
      'POST',
      PROBLEMS,
      { title: 'Pool exhaustion', description: 'Connections leak', ...body },
      as.auth,
    );
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data;
  };
  const history = async (ticketId: string, as: SignedIn = admin) => {
    const reply = await client.request(
      'GET',
      `/api/v1/tickets/history?ticketId=${ticketId}&limit=100`,
      undefined,
      as.auth,
    );
    expect(reply.status).toBe(200);
    return reply.body.data as Record<string, unknown>[];
  };
  return { client, admin, other, viewer, incidentId, otherIncidentId, createProblem, history };
};

export type ProblemsWorld = Awaited<ReturnType<typeof startProblemsWorld>>;
