import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes, type RouteEntry } from '#lib/routes/index.ts';
import { apiKeyHeaders, signUpBusiness } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

/** Names every plain object inherits: looking one up on `{}` finds something, so a lookup table built on one breaks. */
const INHERITED_NAMES = ['__proto__', 'constructor', 'toString'] as const;

let client: TestClient;
let bearer: Record<string, string>;
let apiKey: Record<string, string>;

beforeAll(async () => {
  client = await startTestStack();
  bearer = (await signUpBusiness(client)).auth;
  apiKey = await apiKeyHeaders(client, await signUpBusiness(client), ['ingestion:write']);
});
afterAll(async () => {
  await client.stack.stop();
});

const pathOf = ({ route }: RouteEntry): string => route.path.replace(/:([A-Za-z0-9_]+)/g, 'x');

/**
 * Raw HTTP rather than fetch, so the header names reach the server exactly as written, the way a
 * client that is not a browser sends them.
 */
const send = (
  method: string,
  path: string,
  headers: [string, string][],
  json = '{}',
): Promise<{ status: number; text: string }> =>
  new Promise((resolve, reject) => {
    const url = new URL(path, client.stack.url);
    const body = method === 'GET' || method === 'DELETE' ? undefined : json;
    const outgoing = httpRequest(url, { method }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    for (const [name, value] of headers) outgoing.setHeader(name, value);
    if (body) outgoing.setHeader('content-type', 'application/json');
    outgoing.on('error', reject);
    outgoing.end(body);
  });

const credentials = (entry: RouteEntry): [string, string][] =>
  Object.entries(entry.route.auth === 'apiKey' ? apiKey : bearer);

interface Probe {
  entry: RouteEntry;
  path: string;
  headers: [string, string][];
  body?: string;
}

const serverErrors = async (probes: Probe[]): Promise<string[]> => {
  const failures: string[] = [];
  for (const { entry, path, headers, body } of probes) {
    const reply = await send(entry.route.method, path, headers, body);
    if (reply.status >= 500) failures.push(`${entry.route.method} ${entry.route.path}: ${reply.status} ${reply.text}`);
  }
  return failures;
};

describe('names every object inherits, as header, query and body names', () => {
  it('never get a 5xx as header names, on any route', async () => {
    const named = INHERITED_NAMES.map((name): [string, string] => [name, 'x']);
    const probes = allRoutes().map((entry) => ({
      entry,
      path: pathOf(entry),
      headers: [...credentials(entry), ...named],
    }));
    expect(await serverErrors(probes)).toEqual([]);
  });

  it('never get a 5xx as query names, on any route', async () => {
    const query = INHERITED_NAMES.map((name) => `${name}=x`).join('&');
    const probes = allRoutes().map((entry) => ({
      entry,
      path: `${pathOf(entry)}?${query}`,
      headers: credentials(entry),
    }));
    expect(await serverErrors(probes)).toEqual([]);
  });

  it('never get a 5xx as body keys, on any route', async () => {
    const body = `{${INHERITED_NAMES.map((name) => `"${name}":{"x":1}`).join(',')}}`;
    const probes = allRoutes().map((entry) => ({ entry, path: pathOf(entry), headers: credentials(entry), body }));
    expect(await serverErrors(probes)).toEqual([]);
  });
});
