/**
 * Key builders every entity module uses. Workspace data lives under `WS#<workspaceId>#...` so no key of
 * one workspace can address another's items; the few account-level items (an account found by its
 * e-mail before any workspace is known, limiter counters) use `ACCOUNT#` and `LIMIT#`.
 */
const SEPARATOR = '#';

const join = (parts: readonly (string | number)[]): string => parts.join(SEPARATOR);

export const workspaceKey = (workspaceId: string, ...parts: (string | number)[]): string => {
  if (!workspaceId) throw new Error('a workspace key needs a workspace id');
  return join(['WS', workspaceId, ...parts]);
};

export const accountKey = (...parts: (string | number)[]): string => join(['ACCOUNT', ...parts]);

export const limiterKey = (...parts: (string | number)[]): string => join(['LIMIT', ...parts]);

/** A sort key that orders by time first and stays unique: `<iso>#<id>`. */
export const timeKey = (isoTimestamp: string, id: string): string => join([isoTimestamp, id]);
