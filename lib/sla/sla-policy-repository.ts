import { deleteIfPresent, putNew, updateIfPresent } from '#lib/store/conditional-writes.ts';
import { countersOf } from '#lib/store/counters.ts';
import { findItem } from '#lib/store/items.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/queries.ts';
import { setFields } from '#lib/store/set-fields.ts';
import type { Table } from '#lib/store/table.ts';
import {
  POLICY_COUNTERS,
  breachStatusOf,
  type PolicyCounters,
  type SlaPolicy,
  type SlaPolicyFields,
  type SlaPriority,
} from './sla-policy.ts';

/** SLA_POLICY items (docs/data-model.md 5.10): `{W}#SLA` / `<policyId>`, the counters beside the fields. */
const policyPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'SLA');

const policyItemKey = (workspaceId: string, policyId: string) => ({ pk: policyPartition(workspaceId), sk: policyId });

/** A policy with what its incidents added up to. */
export interface StoredPolicy {
  policy: SlaPolicy;
  counters: PolicyCounters;
}

const fromItem = (item: Record<string, unknown>, workspaceId: string): StoredPolicy => {
  if (item.workspaceId !== workspaceId) throw new Error(`SLA policy ${String(item.id)} read outside its workspace`);
  const stored = countersOf(item);
  const counters = Object.fromEntries(
    POLICY_COUNTERS.map((name) => [name, Math.max(0, stored[name] ?? 0)]),
  ) as PolicyCounters;
  return {
    policy: {
      id: item.id as string,
      name: item.name as string,
      priority: item.priority as SlaPriority,
      responseTimeMinutes: item.responseTimeMinutes as number,
      responseThreshold: item.responseThreshold as number,
      resolveTimeMinutes: item.resolveTimeMinutes as number,
      resolveThreshold: item.resolveThreshold as number,
      escalationContact: item.escalationContact as string,
      applicableTeam: item.applicableTeam as string,
      uptimeTarget: item.uptimeTarget as number,
      breachStatus: breachStatusOf(counters),
      createdAt: item.createdAt as string,
      updatedAt: item.updatedAt as string,
    },
    counters,
  };
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const slaPolicyRepository = (table: Table, workspaceId: string) => {
  const insertPolicy = async (policy: SlaPolicy): Promise<void> => {
    const { breachStatus: _derived, ...fields } = policy;
    await putNew(table, { ...policyItemKey(workspaceId, policy.id), type: 'SLA_POLICY', workspaceId, ...fields });
  };

  const findPolicy = (policyId: string): Promise<StoredPolicy | undefined> =>
    findItem(table, policyItemKey(workspaceId, policyId), (item) => fromItem(item, workspaceId));

  /** Every policy, oldest first (ids are ULIDs); unpaged, bounded by what a team configures. */
  const queryPolicies = async (): Promise<StoredPolicy[]> => {
    const items = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': policyPartition(workspaceId) },
    });
    return items.map((item) => fromItem(item, workspaceId));
  };

  /**
   * SETs every client field of an existing policy in one UpdateItem, so its id, createdAt and counters
   * stay; undefined if there is no such policy.
   */
  const replacePolicyFields = async (
    policyId: string,
    fields: SlaPolicyFields,
    updatedAt: string,
  ): Promise<StoredPolicy | undefined> => {
    const item = await updateIfPresent(
      table,
      policyItemKey(workspaceId, policyId),
      setFields({ ...fields, updatedAt }),
    );
    return item && fromItem(item, workspaceId);
  };

  const removePolicy = async (policyId: string): Promise<boolean> =>
    (await deleteIfPresent(table, policyItemKey(workspaceId, policyId))) !== undefined;

  /**
   * ADDs an incident's change to a policy's counters, only while the policy exists: a deleted policy is
   * not brought back by the incidents it governed. False when it is gone.
   */
  const addToPolicyCounters = async (policyId: string, delta: Record<string, number>): Promise<boolean> => {
    const entries = Object.entries(delta);
    if (entries.length === 0) return true;
    const written = await updateIfPresent(table, policyItemKey(workspaceId, policyId), {
      UpdateExpression: `ADD ${entries.map((_entry, index) => `#c${index} :c${index}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], index) => [`#c${index}`, name])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], index) => [`:c${index}`, value])),
    });
    return written !== undefined;
  };
  return { insertPolicy, findPolicy, queryPolicies, replacePolicyFields, removePolicy, addToPolicyCounters };
};
