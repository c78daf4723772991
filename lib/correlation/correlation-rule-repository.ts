import type { CorrelationRule } from './correlation-rule.ts';
import type { Table } from '#lib/store/table.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { setFields } from '#lib/store/set-fields.ts';
import { queryAll } from '#lib/store/queries.ts';
import { deleteIf, putIfAbsent, putItem, updateIf } from '#lib/store/conditional-writes.ts';
import { getItem } from '#lib/store/items.ts';

/**
 * CORRELATION_RULE items, one per rule, and in the same partition the marker that the workspace has
 * written rules of its own (after which the built-in defaults no longer apply), so one Query reads both.
 */
const correlationRulePartition = (workspaceId: string): string => workspaceKey(workspaceId, 'CORRULE');

const correlationRuleItemKey = (workspaceId: string, ruleId: string) => ({
  pk: correlationRulePartition(workspaceId),
  sk: ruleId,
});

/** `#` sorts before every rule id (ULIDs and `default-*`), and no rule id can contain it. */
const rulesWrittenMarkerKey = (workspaceId: string) => ({
  pk: correlationRulePartition(workspaceId),
  sk: '#RULES_WRITTEN',
});

const RULE_TYPE = 'CORRELATION_RULE';
const MARKER_TYPE = 'CORRELATION_RULES_WRITTEN';

const ruleToItem = (workspaceId: string, rule: CorrelationRule): Record<string, unknown> => ({
  ...correlationRuleItemKey(workspaceId, rule.id),
  type: RULE_TYPE,
  workspaceId,
  ...rule,
});

const markerToItem = (workspaceId: string, at: string): Record<string, unknown> => ({
  ...rulesWrittenMarkerKey(workspaceId),
  type: MARKER_TYPE,
  workspaceId,
  createdAt: at,
});

const ruleFromItem = (workspaceId: string, item: Record<string, unknown>): CorrelationRule => {
  if (item.workspaceId !== workspaceId) throw new Error('a correlation rule of another workspace was read');
  return {
    id: item.id as string,
    name: item.name as string,
    description: (item.description as string | null | undefined) ?? null,
    order: item.order as number,
    isActive: item.isActive as boolean,
    match: (item.match as CorrelationRule['match'] | undefined) ?? {},
    groupBy: (item.groupBy as string[] | undefined) ?? [],
    windowMinutes: item.windowMinutes as number,
    minSignals: item.minSignals as number,
    action: item.action as CorrelationRule['action'],
    autoResolve: item.autoResolve === true,
    isDefault: item.isDefault === true,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
};

/** Only a rule item, never the marker beside it, is read or written as a rule. */
const IS_RULE = {
  expression: 'attribute_exists(sk) AND #type = :ruleType',
  names: { '#type': 'type' },
  values: { ':ruleType': RULE_TYPE },
};

export interface StoredRules {
  /** True once the workspace wrote rules of its own; until then the defaults apply. */
  written: boolean;
  rules: CorrelationRule[];
}

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const correlationRuleRepository = (table: Table, workspaceId: string) => {
  /** Every stored rule of the workspace and the marker, in one consistent Query. */
  const readStoredRules = async (): Promise<StoredRules> => {
    const items = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': correlationRulePartition(workspaceId) },
      ConsistentRead: true,
    });
    return {
      written: items.some((item) => item.type === MARKER_TYPE),
      rules: items.filter((item) => item.type === RULE_TYPE).map((item) => ruleFromItem(workspaceId, item)),
    };
  };

  const getStoredRule = async (ruleId: string): Promise<CorrelationRule | undefined> => {
    const Item = await getItem(table, correlationRuleItemKey(workspaceId, ruleId));
    return Item?.type === RULE_TYPE ? ruleFromItem(workspaceId, Item) : undefined;
  };

  /** Stores a new rule; false if one with this id exists (a default written by an earlier request). */
  const insertRule = async (rule: CorrelationRule): Promise<boolean> => {
    return putIfAbsent(table, ruleToItem(workspaceId, rule));
  };

  const markRulesWritten = async (at: string): Promise<void> => {
    await putItem(table, markerToItem(workspaceId, at));
  };

  /** SETs the given fields of an existing rule and returns the rule after; undefined if there is no such rule. */
  const updateStoredRule = async (
    ruleId: string,
    changes: Partial<CorrelationRule>,
  ): Promise<CorrelationRule | undefined> => {
    const set = setFields(changes);
    const item = await updateIf(table, correlationRuleItemKey(workspaceId, ruleId), {
      UpdateExpression: set.UpdateExpression,
      ConditionExpression: IS_RULE.expression,
      ExpressionAttributeNames: { ...set.ExpressionAttributeNames, ...IS_RULE.names },
      ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ...IS_RULE.values },
    });
    return item && ruleFromItem(workspaceId, item);
  };

  /** False if there was no such rule. */
  const deleteStoredRule = async (ruleId: string): Promise<boolean> => {
    const applied = await deleteIf(table, correlationRuleItemKey(workspaceId, ruleId), {
      ConditionExpression: IS_RULE.expression,
      ExpressionAttributeNames: IS_RULE.names,
      ExpressionAttributeValues: IS_RULE.values,
    });
    return applied !== undefined;
  };
  return { readStoredRules, getStoredRule, insertRule, markRulesWritten, updateStoredRule, deleteStoredRule };
};
