import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import { unlessConditionFails } from '#lib/store/conditional-writes.ts';
import {
  SECRET_SORT_PREFIX,
  webhookPartition,
  webhookSecretFromItem,
  webhookSecretKey,
  type WebhookSecret,
} from './webhook-secrets-item.ts';
import type { SignedSender } from './webhook-secrets-signature.ts';

/** Consistent: a secret set a moment ago must already guard the next delivery. */
export const findWebhookSecret = async (
  table: Table,
  workspaceId: string,
  sender: SignedSender,
): Promise<WebhookSecret | undefined> => {
  const { Item } = await table.doc.send(
    new GetCommand({ TableName: table.name, Key: webhookSecretKey(workspaceId, sender), ConsistentRead: true }),
  );
  return Item && webhookSecretFromItem(Item, workspaceId);
};

/**
 * Sets the sender's secret in one UpdateItem. Replacing one keeps the old secret valid until `previousValidUntil`,
 * so deliveries signed before the sender was switched over still pass; `if_not_exists(secret, :secret)` reads the
 * value before this write, and for a first secret it is the new one itself.
 */
export const putWebhookSecret = async (
  table: Table,
  workspaceId: string,
  sender: SignedSender,
  secret: string,
  now: string,
  previousValidUntil: string,
): Promise<WebhookSecret> => {
  const { Attributes } = await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: webhookSecretKey(workspaceId, sender),
      UpdateExpression:
        'SET #type = :type, workspaceId = :workspaceId, sender = :sender, previousSecret = if_not_exists(secret, :secret), ' +
        'secret = :secret, previousValidUntil = :until, createdAt = if_not_exists(createdAt, :now), updatedAt = :now',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: {
        ':type': 'WEBHOOK_SECRET',
        ':workspaceId': workspaceId,
        ':sender': sender,
        ':secret': secret,
        ':until': previousValidUntil,
        ':now': now,
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return webhookSecretFromItem(Attributes ?? {}, workspaceId);
};

export const listWebhookSecretItems = async (table: Table, workspaceId: string): Promise<WebhookSecret[]> => {
  const items = await queryAll(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': webhookPartition(workspaceId), ':prefix': SECRET_SORT_PREFIX },
    ConsistentRead: true,
  });
  return items.map((item) => webhookSecretFromItem(item, workspaceId));
};

/** False when the sender had no secret. */
export const deleteWebhookSecretItem = async (
  table: Table,
  workspaceId: string,
  sender: SignedSender,
): Promise<boolean> => {
  return unlessConditionFails(
    async () => {
      await table.doc.send(
        new DeleteCommand({
          TableName: table.name,
          Key: webhookSecretKey(workspaceId, sender),
          ConditionExpression: 'attribute_exists(sk)',
        }),
      );
      return true;
    },
    () => false,
  );
};
