import { expect } from 'vitest';
import type { TestClient } from '../support/local-stack.ts';

export const INCIDENTS = '/api/v1/incident-ticket';

export type Auth = Record<string, string>;

/** Creates an incident through the API and returns the `data` of the 201. */
export const createIncident = async (
  client: TestClient,
  auth: Auth,
  fields: Record<string, unknown> = {},
): Promise<Record<string, any>> => {
  const reply = await client.request('POST', INCIDENTS, { summary: 'Checkout latency above SLO', priority: 'HIGH', ...fields }, auth);
  expect(reply.status, reply.text).toBe(201);
  return reply.body.data;
};

/** The ticket's history events, chronological, from the tickets route. */
export const historyOf = async (client: TestClient, auth: Auth, ticketId: string): Promise<Record<string, any>[]> => {
  const reply = await client.request('GET', `/api/v1/tickets/history?ticketId=${ticketId}&limit=100`, undefined, auth);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
};

/** The incident's message thread, chronological. */
export const messagesOf = async (client: TestClient, auth: Auth, ticketId: string): Promise<Record<string, any>[]> => {
  const reply = await client.request('GET', `${INCIDENTS}/message/${ticketId}`, undefined, auth);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
};

/** `INC-YYYYMMDD-XXXX` -> XXXX as a number. */
export const numberOf = (id: string): number => Number(id.slice(-4));
