import type { ACCOUNT_PREFIXES, WORKSPACE_PREFIXES } from './key-prefixes.ts';

type WorkspacePrefix = keyof typeof WORKSPACE_PREFIXES;
type AccountPrefix = keyof typeof ACCOUNT_PREFIXES;

/**
 * Key builders every entity module uses. Workspace data lives under `WS#<workspaceId>#<PREFIX>...` so no
 * key of one workspace can address another's items; the few account-level items (an account found by
 * its e-mail before any workspace is known) use `ACCOUNT#`, limiter counters `LIMIT#`. Prefixes come from
 * the registry in key-prefixes.ts.
 */
const SEPARATOR = '#';

const join = (parts: readonly (string | number)[]): string => parts.join(SEPARATOR);

/** The workspace item's own key, or a key under one of the workspace's registered partitions. */
export function workspaceKey(workspaceId: string): string;
export function workspaceKey(workspaceId: string, prefix: WorkspacePrefix, ...parts: (string | number)[]): string;
export function workspaceKey(workspaceId: string, ...parts: (string | number)[]): string {
  if (!workspaceId) throw new Error('a workspace key needs a workspace id');
  return join(['WS', workspaceId, ...parts]);
}

/** An account by its id, or a lookup partition of accounts. */
export function accountKey(accountId: string): string;
export function accountKey(prefix: AccountPrefix, ...parts: (string | number)[]): string;
export function accountKey(...parts: (string | number)[]): string {
  return join(['ACCOUNT', ...parts]);
}

export const limiterKey = (...parts: (string | number)[]): string => join(['LIMIT', ...parts]);

/** A sort key that orders by time first and stays unique: `<iso>#<id>`. */
export const timeKey = (isoTimestamp: string, id: string): string => join([isoTimestamp, id]);
