import { emailKey } from '#lib/accounts/account.ts';
import type { Role } from '#lib/identity/caller.ts';
import { workspaceKey } from '#lib/store/keys.ts';

/** An invitation to join a workspace; its token is never stored, only the token's hash. */
export interface Invite {
  id: string;
  workspaceId: string;
  email: string;
  role: Role;
  level?: string;
  accessPermissions: string[];
  /** The account id of the ADMIN who sent it. */
  invitedBy: string;
  expiresAt: string;
  acceptedAt?: string;
  /** Set when a re-send to the same address replaced this invitation. */
  supersededAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** Accepted and superseded invitations are kept this long past their expiry, then collected by TTL. */
const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export const invitePartition = (workspaceId: string): string => workspaceKey(workspaceId, 'INVITE');

export const inviteItemKey = (workspaceId: string, inviteId: string) => ({
  pk: invitePartition(workspaceId),
  sk: inviteId,
});

export const inviteToItem = (invite: Invite, tokenHash: string): Record<string, unknown> => ({
  ...inviteItemKey(invite.workspaceId, invite.id),
  type: 'INVITE',
  ...invite,
  emailKey: emailKey(invite.email),
  tokenHash,
  ttl: Math.floor((Date.parse(invite.expiresAt) + RETENTION_MS) / 1000),
});

/** The invitation without its keys and token hash; an item of another workspace is a bug, not a miss. */
export const inviteFromItem = (item: Record<string, unknown>, workspaceId: string): Invite => {
  const { pk: _pk, sk: _sk, type: _type, emailKey: _emailKey, tokenHash: _tokenHash, ttl: _ttl, ...invite } = item;
  if (invite.workspaceId !== workspaceId) throw new Error('invite item read outside its workspace');
  return invite as unknown as Invite;
};
