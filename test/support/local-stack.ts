import { Agent, request as httpRequest } from 'node:http';
import { checkResponseContract } from './response-contract.ts';
import { createFakeNetwork } from './fake-network.ts';
import { startLocalStack } from '#infra/local/local-stack.ts';
import type { LocalStack, LocalStackOptions } from '#infra/local/local-stack-shape.ts';

export interface HttpReply {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** What tests that only speak HTTP need: the local stack in this process, or a service in a child process. */
export interface HttpClient {
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpReply>;
}

export interface TestClient extends HttpClient {
  stack: LocalStack;
}

/** Limits high enough that only tests of the limiters meet them. */
export const GENEROUS_RATE_LIMITS = 'global=100000/1m,login=10000/1m,email=10000/1m,apikey=100000/1m';

/**
 * The whole local stack in this process, in memory unless given a directory, on a free port. Its queue
 * workers are off unless asked for: most tests drive a consumer themselves, to see or break it.
 */
export const startTestStack = async (
  dataDir = ':memory:',
  rateLimits = GENEROUS_RATE_LIMITS,
  {
    workers = false,
    oauthProviders,
    integrationProviders,
    allowedOrigins,
    queueSettings,
    reasoner,
    workflowRetryWaitMs,
    network = createFakeNetwork(),
    clock,
  }: Pick<
    LocalStackOptions,
    | 'workers'
    | 'oauthProviders'
    | 'integrationProviders'
    | 'allowedOrigins'
    | 'queueSettings'
    | 'reasoner'
    | 'workflowRetryWaitMs'
    | 'network'
    | 'clock'
  > = {},
): Promise<TestClient> => {
  const stack = await startLocalStack({
    port: 0,
    dataDir,
    rateLimits,
    workers,
    ...(oauthProviders && { oauthProviders }),
    ...(integrationProviders && { integrationProviders }),
    ...(allowedOrigins && { allowedOrigins }),
    ...(queueSettings && { queueSettings }),
    ...(reasoner && { reasoner }),
    ...(workflowRetryWaitMs !== undefined && { workflowRetryWaitMs }),
    ...(clock && { clock }),
    network,
  });
  return { stack, request: requester(stack.url) };
};

/** One keep-alive agent for every test client of the process, as fetch's pool was. */
const agent = new Agent({ keepAlive: true });

/** fetch's default request headers, which the service may read (the gateway event carries the user agent). */
const DEFAULT_HEADERS = { accept: '*/*', 'accept-language': '*', 'user-agent': 'node' };

const withDefaults = (given: Record<string, string>, hasBody: boolean): Record<string, string> => {
  const named = new Set(Object.keys(given).map((name) => name.toLowerCase()));
  const defaults = { ...DEFAULT_HEADERS, ...(hasBody && { 'content-type': 'application/json' }) };
  return { ...Object.fromEntries(Object.entries(defaults).filter(([name]) => !named.has(name))), ...given };
};

/**
 * One request over node:http. fetch cost about 2 ms of CPU more per request on top of the stack's own 5 to 7
 * (measured in docs/testing.md), and the stack tests make about ten thousand; the service never redirects, so
 * nothing of fetch's is missed.
 */
const send = (url: string, method: string, headers: Record<string, string>, payload?: string) =>
  new Promise<{ status: number; headers: Headers; text: string }>((resolve, reject) => {
    const sent = httpRequest(url, { method, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const received = new Headers();
        const raw = response.rawHeaders;
        for (let index = 0; index < raw.length; index += 2) received.append(raw[index]!, raw[index + 1]!);
        resolve({ status: response.statusCode ?? 0, headers: received, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    sent.on('error', reject);
    sent.end(payload);
  });

/** JSON requests to a running service, answered with the parsed body when there is one. */
export const requester =
  (baseUrl: string): HttpClient['request'] =>
  async (method, path, body, headers = {}) => {
    const url = `${baseUrl}${path}`;
    const payload = body === undefined || typeof body === 'string' ? body : JSON.stringify(body);
    const reply = await send(url, method, withDefaults(headers, payload !== undefined), payload);
    let parsed: unknown;
    try {
      parsed = reply.text ? JSON.parse(reply.text) : undefined;
    } catch {
      parsed = undefined;
    }
    checkResponseContract(method, url, reply.status, parsed);
    return { ...reply, body: parsed };
  };
