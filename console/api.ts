import type * as z from 'zod/mini';
import type { sessionData, userData } from '#lib/accounts/schemas.ts';
import { API_BASE } from './router.ts';

/** The signed-in person as the sign-in answered (the server's schema, type-only). */
export type User = z.output<typeof userData>;

type SignedIn = Pick<z.output<typeof sessionData>, 'accessToken' | 'user'>;

/**
 * The session (docs/decisions.md, "A console session that survives a new tab"): the refresh token is in an
 * `HttpOnly; Secure; SameSite=Strict` cookie the sign-in set, scoped to the auth routes, which no script here
 * can read; the access token lives in this page's memory only, and a new tab or a reload gets one from the
 * refresh route with that cookie. Who is signed in (name, e-mail, roles: no credential) is kept in
 * localStorage, so every tab of the console knows it at once and a sign-out in one tab ends the others.
 */
const USER_KEY = 'incident-console.user';

const loadUser = (): User | null => {
  try {
    return JSON.parse(localStorage.getItem(USER_KEY) ?? 'null') as User | null;
  } catch {
    return null;
  }
};

let user: User | null = loadUser();
/** Never stored: a stolen disk or an injected script finds no token. */
let accessToken: string | null = null;

const SESSION_CHANGED = 'console:session';

const save = (next: SignedIn | null): void => {
  const changed = !!user !== !!next;
  user = next?.user ?? null;
  accessToken = next?.accessToken ?? null;
  if (next) localStorage.setItem(USER_KEY, JSON.stringify(next.user));
  else localStorage.removeItem(USER_KEY);
  if (changed) dispatchEvent(new Event(SESSION_CHANGED));
};

// Another tab signed in or out: follow it.
addEventListener('storage', (event) => {
  if (event.key !== USER_KEY) return;
  const next = loadUser();
  if (!!next === !!user) return;
  user = next;
  accessToken = null;
  dispatchEvent(new Event(SESSION_CHANGED));
});

/** Runs `listener` when someone signs in or the session ends (signed out, or a refresh token that no longer works). */
export const onSessionChange = (listener: () => void): (() => void) => {
  addEventListener(SESSION_CHANGED, listener);
  return () => removeEventListener(SESSION_CHANGED, listener);
};

export const currentUser = (): User | null => user;

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
  if (accessToken) headers.authorization = `Bearer ${accessToken}`;
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

/** A new access token from the refresh route; the browser sends the cookie, and the answer renews it. */
const refresh = (): Promise<boolean> => {
  if (!user) return Promise.resolve(false);
  refreshing ??= (async () => {
    try {
      const response = await fetch(`${API_BASE}/auth/refresh-token`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: '{}',
      });
      if (!response.ok || !user) return false;
      const { data } = (await response.json()) as { data: { accessToken: string } };
      accessToken = data.accessToken;
      return true;
    } finally {
      refreshing = undefined;
    }
  })();
  return refreshing;
};

/** The response of a call, once more with a fresh access token when the first met a 401. */
const call = async (method: string, path: string, body?: unknown, accept?: string): Promise<Response> => {
  const hadSession = !!user;
  // A new tab or a reload knows who is signed in but holds no access token yet.
  if (hadSession && !accessToken && !(await refresh())) save(null);
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
  const { data } = await api<SignedIn>('POST', '/auth/login', { email, password });
  save({ accessToken: data.accessToken, user: data.user });
  return data.user;
};

/**
 * Ends the login on the server too (its tokens stop working, the cookie is cleared), then forgets it here and in
 * every other tab, whatever the answer.
 */
export const signOut = async (): Promise<void> => {
  if (user) {
    await fetch(`${API_BASE}/auth/logout`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{}',
    }).catch(() => undefined);
  }
  save(null);
};

/** Query string of the defined, non-empty values. */
export const query = (values: Record<string, string | number | undefined>): string => {
  const entries = Object.entries(values).filter(([, value]) => value !== undefined && value !== '');
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString()}`;
};
