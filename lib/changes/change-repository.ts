import { deploymentFailureSeverity, type ChangeInput, type ChangeStatus } from '#lib/changes/change-input.ts';
import type { Table } from '#lib/store/table.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { filterKey } from '#lib/store/filter-key.ts';
import { ticketIndexKeys } from '#lib/tickets/ticket-item.ts';
import { setFields } from '#lib/store/set-fields.ts';
import { updateFromBefore } from '#lib/store/conditional-writes.ts';
import { countListWrite } from '#lib/store/list-counters.ts';
import { CHANGE_COUNTER } from './change-counter.ts';

/**
 * CHANGE items (docs/data-model.md 5.6): base `{W}#CHANGE` / `<changeId>`, in the unified ticket list (gsi3)
 * by their first `createdAt`. Item `type` CHANGE is also the ticket type.
 */
export const changePartition = (workspaceId: string): string => workspaceKey(workspaceId, 'CHANGE');

const changeItemKey = (workspaceId: string, changeId: string) => ({
  pk: changePartition(workspaceId),
  sk: changeId,
});

/** The ticket-list keys a change gets when it is first written; later writes keep them (`if_not_exists`). */
const changeTicketKeys = (workspaceId: string, changeId: string, createdAt: string) =>
  ticketIndexKeys(workspaceId, { id: changeId, createdAt });

/**
 * The attributes every deployment event sets. `createdAt`, `receivedAt`, the ticket keys and `providerUpdatedAt`
 * are written by the repository: the first three once, the last as the order of events.
 */
const changeFields = (workspaceId: string, change: ChangeInput): Record<string, unknown> => ({
  type: 'CHANGE',
  workspaceId,
  id: change.changeKey,
  provider: change.provider,
  providerDeploymentId: change.providerDeploymentId,
  summary: change.summary,
  status: change.status,
  // A change is as urgent as its failure would be: HIGH to production, MEDIUM elsewhere.
  priority: deploymentFailureSeverity(change.environment),
  environment: change.environment,
  repository: change.repository,
  repositoryKey: filterKey(change.repository),
  commitSha: change.commitSha,
  assignedToEmail: change.deployer,
});

/** What an upsert did: created the change, updated it (with its status before), or dropped a late, older event. */
export type ChangeWrite =
  | { outcome: 'created' }
  | { outcome: 'updated'; previousStatus: ChangeStatus }
  | { outcome: 'stale' };

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const changeRepository = (table: Table, workspaceId: string) => {
  /**
   * One conditional UpdateItem (docs/data-model.md 5.6): the event's fields; `createdAt` (when it happened),
   * `receivedAt` (when it first arrived) and the ticket-list keys written once; and nothing at all when the
   * stored change is from a later provider time.
   */
  const upsertChangeItem = async (change: ChangeInput, now: string): Promise<ChangeWrite> => {
    const set = setFields({
      ...changeFields(workspaceId, change),
      providerUpdatedAt: change.updatedAt,
      updatedAt: now,
    });
    // A time ahead of ours is the sender's clock running fast: the change cannot have happened after it arrived.
    const createdAt = change.occurredAt && change.occurredAt < now ? change.occurredAt : now;
    const ticketKeys = changeTicketKeys(workspaceId, change.changeKey, createdAt);
    const written = await updateFromBefore(table, changeItemKey(workspaceId, change.changeKey), {
      UpdateExpression: `${set.UpdateExpression}, #createdAt = if_not_exists(#createdAt, :createdAt), #receivedAt = if_not_exists(#receivedAt, :now), #gsi3pk = if_not_exists(#gsi3pk, :gsi3pk), #gsi3sk = if_not_exists(#gsi3sk, :gsi3sk)`,
      ConditionExpression: 'attribute_not_exists(sk) OR #providerUpdatedAt <= :incoming',
      ExpressionAttributeNames: {
        ...set.ExpressionAttributeNames,
        '#createdAt': 'createdAt',
        '#receivedAt': 'receivedAt',
        '#gsi3pk': 'gsi3pk',
        '#gsi3sk': 'gsi3sk',
        '#providerUpdatedAt': 'providerUpdatedAt',
      },
      ExpressionAttributeValues: {
        ...set.ExpressionAttributeValues,
        ':createdAt': createdAt,
        ':now': now,
        ':gsi3pk': ticketKeys.gsi3pk,
        ':gsi3sk': ticketKeys.gsi3sk,
        ':incoming': change.updatedAt,
      },
    });
    if (!written) return { outcome: 'stale' };
    const previousStatus = written.before?.status as ChangeStatus | undefined;
    await countListWrite(table, workspaceId, CHANGE_COUNTER, previousStatus && { status: previousStatus }, {
      status: change.status,
    });
    return previousStatus ? { outcome: 'updated', previousStatus } : { outcome: 'created' };
  };
  return { upsertChangeItem };
};
