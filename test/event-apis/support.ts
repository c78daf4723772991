import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { HttpClient } from '../support/local-stack.ts';
import type { Tenant } from '../ingestion-routes/support.ts';

/** The paging tools' senders' payloads (not an `/ingestion/<sender>` route, so not under fixtures/ingestion). */
const EVENT_API_FIXTURES = fileURLToPath(new URL('../fixtures/event-apis', import.meta.url));

export const INTEGRATION_KEYS = '/api/v1/ingestion/integration-keys';
export const ENQUEUE = '/api/v1/events/v2/enqueue';
export const CHANGE_ENQUEUE = '/api/v1/events/v2/change/enqueue';

/** A real sender's payload from the fixtures, with the routing key put where the sender's config puts it. */
export const fixtureOf = (folder: string, file: string, fields: Record<string, unknown> = {}): Record<string, any> => ({
  ...JSON.parse(readFileSync(join(EVENT_API_FIXTURES, folder, file), 'utf8')),
  ...fields,
});

/** An integration key for `serviceId`, as the workspace's ADMIN creates it. */
export const createIntegrationKey = async (client: HttpClient, tenant: Tenant, serviceId: string): Promise<string> => {
  const reply = await client.request(
    'POST',
    INTEGRATION_KEYS,
    { name: `${serviceId} alerts`, serviceId },
    tenant.admin.auth,
  );
  expect(reply.status, reply.text).toBe(201);
  return reply.body.data.key as string;
};

/** Posts as the senders do: JSON text, no credential header. */
export const postEvent = (client: HttpClient, path: string, event: unknown, headers: Record<string, string> = {}) =>
  client.request('POST', path, JSON.stringify(event), { 'content-type': 'application/json', ...headers });
