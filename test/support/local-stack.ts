import { checkResponseContract } from './response-contract.ts';
import { createFakeNetwork } from './fake-network.ts';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '#infra/local/local-stack.ts';

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
    ...(clock && { clock }),
    network,
  });
  return { stack, request: requester(stack.url) };
};

/** JSON requests to a running service, answered with the parsed body when there is one. */
export const requester =
  (baseUrl: string): HttpClient['request'] =>
  async (method, path, body, headers = {}) => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${baseUrl}${path}`, init);
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    checkResponseContract(method, response.url, response.status, parsed);
    return { status: response.status, headers: response.headers, text, body: parsed };
  };
