import { expect } from 'vitest';
import { installPorts } from '#lib/ports/port-set.ts';
import type { SignedIn } from '../support/accounts.ts';
import type { TestClient } from '../support/local-stack.ts';

export const DASHBOARD = '/api/v1/dashboard';
export const INCIDENTS = '/api/v1/incident-ticket';

/** Runs `act` with the service's clock stopped at `iso`, then gives the stack its own clock back. */
export const at = async <T>(client: TestClient, iso: string, act: () => Promise<T>): Promise<T> => {
  const { ports } = client.stack;
  installPorts({ ...ports, clock: { now: () => new Date(iso) } });
  try {
    return await act();
  } finally {
    installPorts(ports);
  }
};

/** Creates an incident at `iso` and answers its id. */
export const incidentAt = (
  client: TestClient,
  as: SignedIn,
  iso: string,
  fields: Record<string, unknown> = {},
): Promise<string> =>
  at(client, iso, async () => {
    const reply = await client.request(
      'POST',
      INCIDENTS,
      { summary: 'Checkout fails', priority: 'HIGH', ...fields },
      as.auth,
    );
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data.id as string;
  });

/** Resolves an incident at `iso`. */
export const resolveAt = (client: TestClient, as: SignedIn, iso: string, id: string): Promise<void> =>
  at(client, iso, async () => {
    const reply = await client.request('POST', `${INCIDENTS}/resolve/${id}`, undefined, as.auth);
    expect(reply.status, reply.text).toBe(200);
  });

/** GET a dashboard route with a query string, expecting 200, answering `data`. */
export const dashboardData = async (
  client: TestClient,
  headers: Record<string, string>,
  route: 'metrics' | 'analytics',
  query: Record<string, string> = {},
): Promise<Record<string, any>> => {
  const reply = await client.request('GET', `${DASHBOARD}/${route}?${new URLSearchParams(query)}`, undefined, headers);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
};
