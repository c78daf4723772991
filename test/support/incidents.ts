import { expect } from 'vitest';
import type { HttpClient } from './local-stack.ts';

export const INCIDENTS = '/api/v1/incident-ticket';

/** Creates an incident through the API (a HIGH one about checkout, unless `fields` say otherwise) and answers the `data` of the 201. */
export const createIncident = async (
  client: HttpClient,
  auth: Record<string, string>,
  fields: Record<string, unknown> = {},
): Promise<Record<string, any>> => {
  const reply = await client.request(
    'POST',
    INCIDENTS,
    { summary: 'Checkout requests failing', priority: 'HIGH', ...fields },
    auth,
  );
  expect(reply.status, reply.text).toBe(201);
  return reply.body.data;
};
