import { createHash, timingSafeEqual } from 'node:crypto';

export interface InviteToken {
  workspaceId: string;
  inviteId: string;
  secret: string;
}

/**
 * The wire form `<workspaceId>.<inviteId>.<secret>`: the ids say where the invitation is, so a token is
 * checked with one strongly consistent read. Changing the workspace id only addresses another
 * partition, where the hash of the whole token cannot match.
 */
export const formatInviteToken = ({ workspaceId, inviteId, secret }: InviteToken): string =>
  `${workspaceId}.${inviteId}.${secret}`;

const PART = /^[A-Za-z0-9_-]+$/;

export const parseInviteToken = (raw: string): InviteToken | undefined => {
  const [workspaceId, inviteId, secret, ...rest] = raw.trim().split('.');
  if (rest.length > 0 || !workspaceId || !inviteId || !secret) return undefined;
  if (![workspaceId, inviteId, secret].every((part) => PART.test(part))) return undefined;
  return { workspaceId, inviteId, secret };
};

/** SHA-256 suffices: the secret has 256 bits of entropy, so there is nothing to guess slowly. */
export const hashInviteToken = (token: InviteToken): string =>
  createHash('sha256').update(formatInviteToken(token)).digest('hex');

export const inviteTokenMatches = (token: InviteToken, storedHash: unknown): boolean => {
  if (typeof storedHash !== 'string') return false;
  const actual = Buffer.from(hashInviteToken(token), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
};
