import { expect } from 'vitest';
import type { HttpClient } from './local-stack.ts';

export const INCIDENTS = '/api/v1/incident-ticket';

/** The `data` of a 201: the incident as created. */
export interface CreatedIncident extends Record<string, any> {
  id: string;
  createdAt: string;
}

/** Creates an incident through the API (a HIGH one about checkout, unless `fields` say otherwise) and answers the `data` of the 201. */
export const createIncident = async (
  client: HttpClient,
  auth: Record<string, string>,
  fields: Record<string, unknown> = {},
): Promise<CreatedIncident> => {
  const reply = await client.request(
    'POST',
    INCIDENTS,
    { summary: 'Checkout requests failing', priority: 'HIGH', ...fields },
    auth,
  );
  expect(reply.status, reply.text).toBe(201);
  return reply.body.data;
};
