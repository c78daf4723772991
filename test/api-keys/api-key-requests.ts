import { expect } from 'vitest';
import type { HttpReply, TestClient } from '../support/local-stack.ts';
import type { SignedIn } from '../support/accounts.ts';

export interface CreatedKey {
  id: string;
  key: string;
  name: string;
  scopes: string[];
}

/** Creates a key through the API as `admin`; every scope unless told otherwise. */
export const createKey = async (
  client: TestClient,
  admin: SignedIn,
  overrides: Record<string, unknown> = {},
): Promise<CreatedKey> => {
  const reply = await client.request(
    'POST',
    '/api/v1/apikey/createapikey',
    { name: 'CI sender', environment: 'PRODUCTION', scopes: ['incidents:read', 'ingestion:write'], ...overrides },
    admin.auth,
  );
  if (reply.status !== 201) throw new Error(`create API key: expected 201, got ${reply.status}: ${reply.text}`);
  return reply.body.data as CreatedKey;
};

/** The workspace's keys as the list route reports them. */
export const listKeys = async (client: TestClient, admin: SignedIn): Promise<Record<string, unknown>[]> => {
  const reply = await client.request('GET', '/api/v1/apikey/apikeys', undefined, admin.auth);
  expect(reply.status).toBe(200);
  return reply.body.data as Record<string, unknown>[];
};

/**
 * Authentication and authorization let the request through: it answers 2xx or a 4xx of the route's own
 * validation, never 401 or 403.
 */
export const expectAdmitted = (reply: HttpReply): void => {
  expect([401, 403], reply.text).not.toContain(reply.status);
  expect(reply.status, reply.text).toBeLessThan(500);
};

export const SIGNALS = '/api/v1/signals';
export const WEBHOOK = '/api/v1/ingestion/webhook';
