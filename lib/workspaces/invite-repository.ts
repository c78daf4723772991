import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { emailKey } from '#lib/accounts/account.ts';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import { unlessConditionFails } from '#lib/store/conditional-writes.ts';
import { inviteFromItem, inviteItemKey, invitePartition, inviteToItem, type Invite } from './invite-item.ts';
import { hashInviteToken, inviteTokenMatches, type InviteToken } from './invite-token.ts';

/**
 * Marks every pending invitation to `email` as superseded, so only the newest token works. An
 * invitation accepted meanwhile keeps its acceptance (the condition fails and it is left alone).
 */
export const supersedePendingInvites = async (
  table: Table,
  workspaceId: string,
  email: string,
  now: string,
): Promise<void> => {
  const pending = await queryAll(table, {
    KeyConditionExpression: 'pk = :pk',
    FilterExpression: 'emailKey = :email AND attribute_not_exists(acceptedAt) AND attribute_not_exists(supersededAt)',
    ExpressionAttributeValues: { ':pk': invitePartition(workspaceId), ':email': emailKey(email) },
    ConsistentRead: true,
  });
  for (const item of pending) {
    await unlessConditionFails(async () => {
      await table.doc.send(
        new UpdateCommand({
          TableName: table.name,
          Key: inviteItemKey(workspaceId, item.sk as string),
          UpdateExpression: 'SET supersededAt = :now, updatedAt = :now',
          ConditionExpression:
            'attribute_exists(sk) AND attribute_not_exists(acceptedAt) AND attribute_not_exists(supersededAt)',
          ExpressionAttributeValues: { ':now': now },
        }),
      );
    });
  }
};

export const putInvite = async (table: Table, invite: Invite, token: InviteToken): Promise<void> => {
  await table.doc.send(
    new PutCommand({
      TableName: table.name,
      Item: inviteToItem(invite, hashInviteToken(token)),
      ConditionExpression: 'attribute_not_exists(sk)',
    }),
  );
};

/** The invitation a token names, or undefined when there is none or the token's secret does not match. */
export const getInviteByToken = async (table: Table, token: InviteToken): Promise<Invite | undefined> => {
  const { Item } = await table.doc.send(
    new GetCommand({
      TableName: table.name,
      Key: inviteItemKey(token.workspaceId, token.inviteId),
      ConsistentRead: true,
    }),
  );
  if (!Item || !inviteTokenMatches(token, Item.tokenHash)) return undefined;
  return inviteFromItem(Item, token.workspaceId);
};

/**
 * The last step of accepting: single use, so of two concurrent accepts one wins. False when the
 * invitation was accepted or superseded since it was read.
 */
export const markInviteAccepted = async (table: Table, token: InviteToken, now: string): Promise<boolean> => {
  return unlessConditionFails(
    async () => {
      await table.doc.send(
        new UpdateCommand({
          TableName: table.name,
          Key: inviteItemKey(token.workspaceId, token.inviteId),
          UpdateExpression: 'SET acceptedAt = :now, updatedAt = :now',
          ConditionExpression:
            'attribute_not_exists(acceptedAt) AND attribute_not_exists(supersededAt) AND tokenHash = :hash',
          ExpressionAttributeValues: { ':now': now, ':hash': hashInviteToken(token) },
        }),
      );
      return true;
    },
    () => false,
  );
};
