import { createHmac } from 'node:crypto';
import { expect } from 'vitest';
import type { IngestionSender } from '#lib/ingestion/senders/index.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import type { HttpClient, HttpReply } from '../support/local-stack.ts';

export const INGESTION = '/api/v1/ingestion';
export const SIGNALS = '/api/v1/signals';
export const PIPELINES = '/api/v1/pipelines';
export const TICKETS = '/api/v1/tickets';
export const SECRETS = '/api/v1/ingestion/secrets';

export const hmacHex = (secret: string, raw: string): string => createHmac('sha256', secret).update(raw).digest('hex');

/** A workspace with its ADMIN and an API key that may ingest and read what ingestion stored. */
export interface Tenant {
  admin: SignedIn;
  key: string;
  /** `X-API-Key` with that key. */
  keyHeaders: Record<string, string>;
}

export const createTenant = async (client: HttpClient, businessName = 'Acme Ops'): Promise<Tenant> => {
  const admin = await signUpBusiness(client, { businessName });
  const reply = await client.request(
    'POST',
    '/api/v1/apikey/createapikey',
    {
      name: 'senders',
      environment: 'PRODUCTION',
      scopes: ['ingestion:write', 'incidents:read', 'analytics:read'],
    },
    admin.auth,
  );
  if (reply.status !== 201) throw new Error(`createapikey: ${reply.status} ${reply.text}`);
  const key = reply.body.data.key as string;
  return { admin, key, keyHeaders: { 'x-api-key': key } };
};

/**
 * Posts the bytes a sender posted, with its headers (any credential in them replaced by the tenant's key as
 * `X-API-Key`, unless `auth` says how to send it).
 */
export const postRaw = (
  client: HttpClient,
  sender: IngestionSender,
  raw: string,
  headers: Record<string, string>,
  auth: { headers?: Record<string, string>; query?: string },
): Promise<HttpReply> => {
  const { authorization: _authorization, 'x-api-key': _key, ...senderHeaders } = headers;
  return client.request('POST', `${INGESTION}/${sender}${auth.query ?? ''}`, raw, {
    'content-type': 'application/json',
    ...senderHeaders,
    ...auth.headers,
  });
};

export const expectAccepted = (reply: HttpReply): Record<string, any> => {
  expect(reply.status, reply.text).toBe(202);
  expect(reply.body.success).toBe(true);
  const data = reply.body.data as Record<string, any>;
  expect(typeof data.signalId).toBe('string');
  expect(typeof data.deduplicated).toBe('boolean');
  return data;
};

/** Every page of a list route, for counts; `key` picks the array out of `data`. */
const listAll = async (
  client: HttpClient,
  path: string,
  auth: Record<string, string>,
  pick: (data: any) => Record<string, any>[] = (data) => data,
): Promise<Record<string, any>[]> => {
  const items: Record<string, any>[] = [];
  for (let page = 1; ; page += 1) {
    const separator = path.includes('?') ? '&' : '?';
    const reply = await client.request('GET', `${path}${separator}page=${page}&limit=100`, undefined, auth);
    expect(reply.status, reply.text).toBe(200);
    const batch = pick(reply.body.data);
    items.push(...batch);
    if (batch.length < 100) return items;
  }
};

export const listSignals = (client: HttpClient, auth: Record<string, string>, query = '') =>
  listAll(client, `${SIGNALS}${query}`, auth);

export const listRuns = (client: HttpClient, auth: Record<string, string>, query = '') =>
  listAll(client, `${PIPELINES}${query}`, auth, (data) => data.runs);

export const listChanges = (client: HttpClient, auth: Record<string, string>) =>
  listAll(client, `${TICKETS}?type=CHANGE`, auth);
