/** A JSON reply: the status and the parsed envelope. */
interface Reply {
  status: number;
  body: { data?: unknown } | undefined;
}

export type Headers = Record<string, string>;

/** The seeding's only way in: HTTP requests to a running service, as any client would send them. */
export interface DemoClient {
  readonly baseUrl: string;
  /** Sends a request and returns `data`, throwing on any status but `expect` (2xx by default). */
  call<T = unknown>(method: string, path: string, options?: CallOptions): Promise<T>;
  /** The whole reply, whatever its status. */
  send(method: string, path: string, body?: unknown, headers?: Headers): Promise<Reply>;
}

interface CallOptions {
  body?: unknown;
  headers?: Headers;
  expect?: number;
}

export const API = '/api/v1';

export const demoClient = (baseUrl: string): DemoClient => {
  const send = async (method: string, path: string, body?: unknown, headers: Headers = {}): Promise<Reply> => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Headers)['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${baseUrl}${path}`, init);
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    baseUrl,
    send,
    async call<T>(method: string, path: string, { body, headers, expect }: CallOptions = {}): Promise<T> {
      const reply = await send(method, path, body, headers);
      const ok = expect === undefined ? reply.status >= 200 && reply.status < 300 : reply.status === expect;
      if (!ok) throw new Error(`${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
      return reply.body?.data as T;
    },
  };
};

/** `Authorization: Bearer <token>`. */
export const bearer = (accessToken: string): Headers => ({ authorization: `Bearer ${accessToken}` });

/** Runs `work` over `items`, at most `limit` at a time, keeping the order of the results. */
export const inBatches = async <T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> => {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
};
