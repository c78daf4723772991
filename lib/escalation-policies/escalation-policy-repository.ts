import { deleteIfPresent, putItem } from '#lib/store/conditional-writes.ts';
import { getItem } from '#lib/store/items.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import type { EscalationPolicy } from './escalation-policy.ts';

/**
 * One partition per workspace (`{W}#ESCPOLICY`), a policy at `<policyId>`: a workspace has a handful, so the
 * list and the sweep's read of them are one Query.
 */
const partition = (workspaceId: string): string => workspaceKey(workspaceId, 'ESCPOLICY');
const policyKey = (workspaceId: string, policyId: string) => ({ pk: partition(workspaceId), sk: policyId });

const fromItem = (workspaceId: string, item: Record<string, unknown>): EscalationPolicy => {
  if (item.workspaceId !== workspaceId) throw new Error('an escalation policy of another workspace was read');
  return {
    id: item.id as string,
    name: item.name as string,
    levels: item.levels as EscalationPolicy['levels'],
    repeat: item.repeat as number,
    ...(typeof item.ackTimeoutMinutes === 'number' && { ackTimeoutMinutes: item.ackTimeoutMinutes }),
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const escalationPolicyRepository = (table: Table, workspaceId: string) => {
  const getPolicy = async (policyId: string): Promise<EscalationPolicy | undefined> => {
    const item = await getItem(table, policyKey(workspaceId, policyId));
    return item && fromItem(workspaceId, item);
  };

  /** Oldest first: ids are time-sortable. */
  const listPolicies = async (): Promise<EscalationPolicy[]> =>
    (
      await queryAll(table, {
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': partition(workspaceId) },
      })
    ).map((item) => fromItem(workspaceId, item));

  const putPolicy = (policy: EscalationPolicy): Promise<void> =>
    putItem(table, { ...policyKey(workspaceId, policy.id), type: 'ESCALATION_POLICY', workspaceId, ...policy });

  const deletePolicy = async (policyId: string): Promise<boolean> =>
    (await deleteIfPresent(table, policyKey(workspaceId, policyId))) !== undefined;

  return { getPolicy, listPolicies, putPolicy, deletePolicy };
};
