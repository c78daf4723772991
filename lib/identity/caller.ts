import { ForbiddenError } from '#lib/contract/errors.ts';

/** Who may act in a workspace, and what an API key may do: the identity every layer below HTTP shares. */
export const ROLES = ['ADMIN', 'ENGINEER', 'VIEWER'] as const;
export type Role = (typeof ROLES)[number];

/** What an API key may do; a Bearer caller is governed by its roles instead. */
export const KEY_SCOPES = [
  'incidents:read',
  'incidents:write',
  'postmortems:read',
  'postmortems:write',
  'analytics:read',
  'integrations:read',
  'integrations:write',
  'ingestion:write',
] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** The caller as authentication resolved it. */
export type Caller =
  | { kind: 'anonymous' }
  | { kind: 'user'; userId: string; email: string; workspaceId: string | null; roles: Role[] }
  | { kind: 'apiKey'; keyId: string; name: string; workspaceId: string; scopes: KeyScope[] };

export type UserCaller = Extract<Caller, { kind: 'user' }>;

/** Who history events and messages name: a person by e-mail, a key by its name, automation as `system`. */
export const actorOf = (caller: Caller): string => {
  switch (caller.kind) {
    case 'user':
      return caller.email;
    case 'apiKey':
      return `api-key:${caller.name}`;
    case 'anonymous':
      return 'system';
  }
};

/** The signed-in person behind a Bearer-only route; the authentication middleware has refused anyone else. */
export const userOf = (caller: Caller): UserCaller => {
  if (caller.kind !== 'user') throw new ForbiddenError('This route takes a Bearer token');
  return caller;
};
