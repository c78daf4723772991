import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from '#lib/store/table.ts';
import { unlessConditionFails } from '#lib/store/conditional-writes.ts';
import {
  refreshFamilyFromItem,
  refreshFamilyKey,
  refreshFamilyToItem,
  refreshFamilyTtl,
  type RefreshFamily,
} from './refresh-family-item.ts';

export const startFamily = async (table: Table, family: RefreshFamily): Promise<void> => {
  await table.doc.send(
    new PutCommand({
      TableName: table.name,
      Item: refreshFamilyToItem(family),
      ConditionExpression: 'attribute_not_exists(sk)',
    }),
  );
};

export const getFamily = async (
  table: Table,
  accountId: string,
  familyId: string,
): Promise<RefreshFamily | undefined> => {
  const { Item } = await table.doc.send(
    new GetCommand({ TableName: table.name, Key: refreshFamilyKey(accountId, familyId), ConsistentRead: true }),
  );
  return Item && refreshFamilyFromItem(Item);
};

export interface Advance {
  fromGeneration: number;
  tokenHash: string;
  rotation: NonNullable<RefreshFamily['rotation']>;
  expiresAt: string;
  now: string;
}

/**
 * Moves the family to the next generation if it is still at `fromGeneration` and not revoked. False
 * means another refresh got there first.
 */
export const advanceFamily = async (
  table: Table,
  accountId: string,
  familyId: string,
  next: Advance,
): Promise<boolean> => {
  return unlessConditionFails(
    async () => {
      await table.doc.send(
        new UpdateCommand({
          TableName: table.name,
          Key: refreshFamilyKey(accountId, familyId),
          UpdateExpression:
            'SET generation = :next, tokenHash = :hash, rotation = :rotation, expiresAt = :expiresAt, #ttl = :ttl, updatedAt = :now',
          ConditionExpression: 'generation = :from AND attribute_not_exists(revokedAt)',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: {
            ':from': next.fromGeneration,
            ':next': next.fromGeneration + 1,
            ':hash': next.tokenHash,
            ':rotation': next.rotation,
            ':expiresAt': next.expiresAt,
            ':ttl': refreshFamilyTtl(next.expiresAt),
            ':now': next.now,
          },
        }),
      );
      return true;
    },
    () => false,
  );
};

/** Keeps the first revocation time when revoked twice. */
export const revokeFamily = async (table: Table, accountId: string, familyId: string, now: string): Promise<void> => {
  await unlessConditionFails(async () => {
    await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: refreshFamilyKey(accountId, familyId),
        UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now), updatedAt = :now',
        ConditionExpression: 'attribute_exists(sk)',
        ExpressionAttributeValues: { ':now': now },
      }),
    );
  });
};
