import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ChangeInput, ChangeStatus } from '#lib/changes/change-input.ts';
import { setFields } from '#lib/store/set-fields.ts';
import type { Table } from '#lib/store/table.ts';
import { unlessConditionFails } from '#lib/store/conditional-writes.ts';
import { changeFields, changeItemKey, changeTicketKeys } from './change-item.ts';

/** What an upsert did: created the change, updated it (with its status before), or dropped a late, older event. */
export type ChangeWrite =
  | { outcome: 'created' }
  | { outcome: 'updated'; previousStatus: ChangeStatus }
  | { outcome: 'stale' };

/**
 * One conditional UpdateItem (docs/data-model.md 5.6): the event's fields, `createdAt` and the ticket-list keys
 * written once, and nothing at all when the stored change is from a later provider time.
 */
export const upsertChangeItem = async (
  table: Table,
  workspaceId: string,
  change: ChangeInput,
  now: string,
): Promise<ChangeWrite> => {
  const set = setFields({ ...changeFields(workspaceId, change), providerUpdatedAt: change.updatedAt, updatedAt: now });
  const ticketKeys = changeTicketKeys(workspaceId, change.changeKey, now);
  return unlessConditionFails(
    async () => {
      const { Attributes } = await table.doc.send(
        new UpdateCommand({
          TableName: table.name,
          Key: changeItemKey(workspaceId, change.changeKey),
          UpdateExpression: `${set.UpdateExpression}, #createdAt = if_not_exists(#createdAt, :now), #gsi3pk = if_not_exists(#gsi3pk, :gsi3pk), #gsi3sk = if_not_exists(#gsi3sk, :gsi3sk)`,
          ConditionExpression: 'attribute_not_exists(sk) OR #providerUpdatedAt <= :incoming',
          ExpressionAttributeNames: {
            ...set.ExpressionAttributeNames,
            '#createdAt': 'createdAt',
            '#gsi3pk': 'gsi3pk',
            '#gsi3sk': 'gsi3sk',
            '#providerUpdatedAt': 'providerUpdatedAt',
          },
          ExpressionAttributeValues: {
            ...set.ExpressionAttributeValues,
            ':now': now,
            ':gsi3pk': ticketKeys.gsi3pk,
            ':gsi3sk': ticketKeys.gsi3sk,
            ':incoming': change.updatedAt,
          },
          ReturnValues: 'ALL_OLD',
        }),
      );
      return Attributes
        ? { outcome: 'updated', previousStatus: Attributes.status as ChangeStatus }
        : { outcome: 'created' };
    },
    () => ({ outcome: 'stale' }),
  );
};
