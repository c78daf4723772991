import { startLocalStack, type LocalStack } from '#infra/local/local-stack.ts';

export interface HttpReply {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export interface TestClient {
  stack: LocalStack;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpReply>;
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
  { workers = false, oauthProviders }: { workers?: boolean; oauthProviders?: string } = {},
): Promise<TestClient> => {
  const stack = await startLocalStack({ port: 0, dataDir, rateLimits, workers, ...(oauthProviders && { oauthProviders }) });
  return {
    stack,
    async request(method, path, body, headers = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      }
      const response = await fetch(`${stack.url}${path}`, init);
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: response.status, headers: response.headers, text, body: parsed };
    },
  };
};
