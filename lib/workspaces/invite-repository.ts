import type { Role } from '#lib/identity/caller.ts';
import type { Table } from '#lib/store/table.ts';
import { emailKey } from '#lib/accounts/account.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/queries.ts';
import { putNew, updateIf, updateIfPresent } from '#lib/store/conditional-writes.ts';
import { hashInviteToken, inviteTokenMatches, type InviteToken } from './invite-token.ts';
import { getItem } from '#lib/store/items.ts';

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

const invitePartition = (workspaceId: string): string => workspaceKey(workspaceId, 'INVITE');

const inviteItemKey = (workspaceId: string, inviteId: string) => ({
  pk: invitePartition(workspaceId),
  sk: inviteId,
});

const inviteToItem = (invite: Invite, tokenHash: string): Record<string, unknown> => ({
  ...inviteItemKey(invite.workspaceId, invite.id),
  type: 'INVITE',
  ...invite,
  emailKey: emailKey(invite.email),
  tokenHash,
  ttl: Math.floor((Date.parse(invite.expiresAt) + RETENTION_MS) / 1000),
});

/** The invitation without its keys and token hash; an item of another workspace is a bug, not a miss. */
const inviteFromItem = (item: Record<string, unknown>, workspaceId: string): Invite => {
  const { pk: _pk, sk: _sk, type: _type, emailKey: _emailKey, tokenHash: _tokenHash, ttl: _ttl, ...invite } = item;
  if (invite.workspaceId !== workspaceId) throw new Error('invite item read outside its workspace');
  return invite as unknown as Invite;
};

export const putInvite = async (table: Table, invite: Invite, token: InviteToken): Promise<void> => {
  await putNew(table, inviteToItem(invite, hashInviteToken(token)));
};

/** The invitation a token names, or undefined when there is none or the token's secret does not match. */
export const getInviteByToken = async (table: Table, token: InviteToken): Promise<Invite | undefined> => {
  const Item = await getItem(table, inviteItemKey(token.workspaceId, token.inviteId));
  if (!Item || !inviteTokenMatches(token, Item.tokenHash)) return undefined;
  return inviteFromItem(Item, token.workspaceId);
};

/**
 * The last step of accepting: single use, so of two concurrent accepts one wins. False when the
 * invitation was accepted or superseded since it was read.
 */
export const markInviteAccepted = async (table: Table, token: InviteToken, now: string): Promise<boolean> => {
  const applied = await updateIf(table, inviteItemKey(token.workspaceId, token.inviteId), {
    UpdateExpression: 'SET acceptedAt = :now, updatedAt = :now',
    ConditionExpression:
      'attribute_not_exists(acceptedAt) AND attribute_not_exists(supersededAt) AND tokenHash = :hash',
    ExpressionAttributeValues: { ':now': now, ':hash': hashInviteToken(token) },
  });
  return applied !== undefined;
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const inviteRepository = (table: Table, workspaceId: string) => {
  /**
   * Marks every pending invitation to `email` as superseded, so only the newest token works. An
   * invitation accepted meanwhile keeps its acceptance (the condition fails and it is left alone).
   */
  const supersedePendingInvites = async (email: string, now: string): Promise<void> => {
    const pending = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk',
      FilterExpression: 'emailKey = :email AND attribute_not_exists(acceptedAt) AND attribute_not_exists(supersededAt)',
      ExpressionAttributeValues: { ':pk': invitePartition(workspaceId), ':email': emailKey(email) },
      ConsistentRead: true,
    });
    for (const item of pending) {
      await updateIfPresent(table, inviteItemKey(workspaceId, item.sk as string), {
        UpdateExpression: 'SET supersededAt = :now, updatedAt = :now',
        ConditionExpression: 'attribute_not_exists(acceptedAt) AND attribute_not_exists(supersededAt)',
        ExpressionAttributeValues: { ':now': now },
      });
    }
  };
  /** Ids of the invitations still open (not accepted, superseded or expired): people who may hold turns already. */
  const openInviteIds = async (now: string): Promise<string[]> => {
    const open = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk',
      FilterExpression: 'attribute_not_exists(acceptedAt) AND attribute_not_exists(supersededAt) AND expiresAt > :now',
      ExpressionAttributeValues: { ':pk': invitePartition(workspaceId), ':now': now },
      ConsistentRead: true,
    });
    return open.map((item) => item.sk as string);
  };

  /** Ids of every invitation sent to `email`: a re-send's and the one it replaced name the same person. */
  const inviteIdsTo = async (email: string): Promise<string[]> => {
    const sent = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk',
      FilterExpression: 'emailKey = :email',
      ExpressionAttributeValues: { ':pk': invitePartition(workspaceId), ':email': emailKey(email) },
      ConsistentRead: true,
    });
    return sent.map((item) => item.sk as string);
  };

  return { supersedePendingInvites, openInviteIds, inviteIdsTo };
};
