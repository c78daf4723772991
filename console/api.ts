import type * as z from 'zod/mini';
import type { sessionData, userData } from '#lib/accounts/schemas.ts';
import { API_BASE } from './router.ts';

/** The signed-in person as the sign-in answered (the server's schema, type-only). */
export type User = z.output<typeof userData>;

type Session = Pick<z.output<typeof sessionData>, 'accessToken' | 'refreshToken' | 'user'>;

/**
 * Tokens live in sessionStorage: they survive a reload of the tab that signed in and die with it; no other
 * tab, and nothing on disk, holds them. The access token lasts 15 minutes and is refreshed on a 401.
 */
const STORAGE_KEY = 'incident-console.session';

const load = (): Session | null => {
  try {
    return JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as Session | null;
  } catch {
    return null;
  }
};

let session: Session | null = load();

const SESSION_CHANGED = 'console:session';

const save = (next: Session | null): void => {
  const changed = !!session !== !!next;
  session = next;
  if (next) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  else sessionStorage.removeItem(STORAGE_KEY);
  if (changed) dispatchEvent(new Event(SESSION_CHANGED));
};

/** Runs `listener` when someone signs in or the session ends (signed out, or a refresh token that no longer works). */
export const onSessionChange = (listener: () => void): (() => void) => {
  addEventListener(SESSION_CHANGED, listener);
  return () => removeEventListener(SESSION_CHANGED, listener);
};

export const currentUser = (): User | null => session?.user ?? null;

/** `write` routes take ADMIN or ENGINEER (lib/http/route.ts); a VIEWER reads. */
export const canWrite = (user: User | null): boolean =>
  !!user && user.roles.some((role) => role === 'ADMIN' || role === 'ENGINEER');

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: readonly string[] = [],
  ) {
    super(message);
  }
}

export interface Reply<T> {
  data: T;
  message: string;
  meta?: { total: number; page: number; limit: number; totalPages: number };
  page?: number;
  total?: number;
}

const send = (method: string, path: string, body: unknown, accept = 'application/json'): Promise<Response> => {
  const headers: Record<string, string> = { accept };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (session) headers.authorization = `Bearer ${session.accessToken}`;
  return fetch(`${API_BASE}${path}`, {
    method,
    headers,
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
};

const failure = async (response: Response): Promise<ApiError> => {
  const body = (await response.json().catch(() => null)) as { message?: string; errors?: string[] } | null;
  return new ApiError(response.status, body?.message ?? `Request failed (${response.status})`, body?.errors ?? []);
};

/** One refresh at a time: parallel requests that all met a 401 wait for the same new token. */
let refreshing: Promise<boolean> | undefined;

const refresh = (): Promise<boolean> => {
  const refreshToken = session?.refreshToken;
  if (!refreshToken) return Promise.resolve(false);
  refreshing ??= (async () => {
    try {
      const response = await fetch(`${API_BASE}/auth/refresh-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ refreshToken }),
      });
      if (!response.ok || !session) return false;
      const { data } = (await response.json()) as { data: { accessToken: string; refreshToken?: string } };
      save({ ...session, accessToken: data.accessToken, refreshToken: data.refreshToken ?? refreshToken });
      return true;
    } finally {
      refreshing = undefined;
    }
  })();
  return refreshing;
};

/** The response of a call, once more with a fresh access token when the first met a 401. */
const call = async (method: string, path: string, body?: unknown, accept?: string): Promise<Response> => {
  const hadSession = !!session;
  let response = await send(method, path, body, accept);
  if (response.status === 401 && hadSession) {
    if (await refresh()) response = await send(method, path, body, accept);
    else save(null);
  }
  if (!response.ok) throw await failure(response);
  return response;
};

export const api = async <T>(method: string, path: string, body?: unknown): Promise<Reply<T>> =>
  (await call(method, path, body)).json() as Promise<Reply<T>>;

export const get = <T>(path: string): Promise<Reply<T>> => api<T>('GET', path);

/** A binary answer (the PDF export): API Gateway sends bytes only when `Accept` names the binary type first. */
export const download = async (path: string, body: unknown, accept: string): Promise<Blob> =>
  (await call('POST', path, body, accept)).blob();

export const signIn = async (email: string, password: string): Promise<User> => {
  const { data } = await api<Session>('POST', '/auth/login', { email, password });
  save({ accessToken: data.accessToken, refreshToken: data.refreshToken, user: data.user });
  return data.user;
};

/** Ends the login on the server too (its tokens stop working), then forgets it here whatever the answer. */
export const signOut = async (): Promise<void> => {
  const refreshToken = session?.refreshToken;
  save(null);
  if (!refreshToken) return;
  await fetch(`${API_BASE}/auth/logout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ refreshToken }),
  }).catch(() => undefined);
};

/** Query string of the defined, non-empty values. */
export const query = (values: Record<string, string | number | undefined>): string => {
  const entries = Object.entries(values).filter(([, value]) => value !== undefined && value !== '');
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString()}`;
};
