import { ServiceUnavailableError } from '#lib/contract/errors.ts';

/** Per call: a request makes at most a few in a row, well inside the function's timeout. */
export const PROVIDER_TIMEOUT_MS = 3000;

export interface ProviderReply {
  status: number;
  ok: boolean;
  body: unknown;
}

/** A provider refused what this service asked with a 4xx: the reason it gave, for the connection's status. */
export class ProviderRefusedError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(`the provider answered ${status}: ${reason}`);
  }
}

const reasonOf = (body: unknown, status: number): string => {
  if (body && typeof body === 'object') {
    const { error, error_description: description, message } = body as Record<string, unknown>;
    const text = [error, description, message].filter((part) => typeof part === 'string').join(': ');
    if (text) return text.slice(0, 200);
  }
  return `HTTP ${status}`;
};

/**
 * One HTTP call to a provider. Redirects are refused, so a token goes only to the configured host; an
 * unreachable or slow provider, a 5xx or a 429 is a 503 for the caller (retrying later may work), a 4xx
 * resolves with `ok: false` for the caller to judge.
 */
export const callProvider = async (
  url: string,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
): Promise<ProviderReply> => {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch (error) {
    throw new ServiceUnavailableError('The provider did not answer', [
      `provider: ${new URL(url).host} did not answer (${(error as Error).message})`,
    ]);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  if (response.status >= 500 || response.status === 429) {
    throw new ServiceUnavailableError('The provider did not answer', [
      `provider: ${new URL(url).host} answered ${response.status}`,
    ]);
  }
  return { status: response.status, ok: response.ok, body };
};

/** The reply's body when it is a success, else the provider's refusal. */
export const expectSuccess = (reply: ProviderReply): unknown => {
  if (!reply.ok) throw new ProviderRefusedError(reply.status, reasonOf(reply.body, reply.status));
  return reply.body;
};

export const jsonPost = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  callProvider(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
