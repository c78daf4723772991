import { assertOfWorkspace } from '#lib/store/item-values.ts';
import type { Table } from '#lib/store/table.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/queries.ts';
import { deleteIfPresent, putItem } from '#lib/store/conditional-writes.ts';
import type { PushSubscription } from './push-subscription.ts';

/** PUSHSUB items (docs/data-model.md 5.17): `{W}#PUSHSUB#<userId>` / `<subscriptionId>`. */
const memberPartition = (workspaceId: string, userId: string): string => workspaceKey(workspaceId, 'PUSHSUB', userId);

const subscriptionKey = (workspaceId: string, userId: string, id: string) => ({
  pk: memberPartition(workspaceId, userId),
  sk: id,
});

const fromItem = (item: Record<string, unknown>, workspaceId: string): PushSubscription => {
  assertOfWorkspace(item, workspaceId, `push subscription ${String(item.sk)}`);
  return {
    id: item.id as string,
    userId: item.userId as string,
    endpoint: item.endpoint as string,
    keys: item.keys as PushSubscription['keys'],
    createdAt: item.createdAt as string,
  };
};

export const pushSubscriptionRepository = (table: Table, workspaceId: string) => {
  const putSubscription = (subscription: PushSubscription): Promise<void> =>
    putItem(table, {
      ...subscriptionKey(workspaceId, subscription.userId, subscription.id),
      type: 'PUSH_SUBSCRIPTION',
      workspaceId,
      ...subscription,
    });

  /** Every device the member subscribed, oldest first (ids are hashes, so sorted here). */
  const listMemberSubscriptions = async (userId: string): Promise<PushSubscription[]> => {
    const items = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': memberPartition(workspaceId, userId) },
    });
    return items.map((item) => fromItem(item, workspaceId)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  };

  /** Whether there was such a subscription. */
  const deleteSubscription = async (userId: string, id: string): Promise<boolean> =>
    (await deleteIfPresent(table, subscriptionKey(workspaceId, userId, id))) !== undefined;

  return { putSubscription, listMemberSubscriptions, deleteSubscription };
};
