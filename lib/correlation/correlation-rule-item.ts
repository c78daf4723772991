import { workspaceKey } from '#lib/store/keys.ts';
import type { CorrelationRule } from './correlation-rule.ts';

/**
 * CORRELATION_RULE items, one per rule, and in the same partition the marker that the workspace has
 * written rules of its own (after which the built-in defaults no longer apply), so one Query reads both.
 */
export const correlationRulePartition = (workspaceId: string): string => workspaceKey(workspaceId, 'CORRULE');

export const correlationRuleItemKey = (workspaceId: string, ruleId: string) => ({
  pk: correlationRulePartition(workspaceId),
  sk: ruleId,
});

/** `#` sorts before every rule id (ULIDs and `default-*`), and no rule id can contain it. */
export const rulesWrittenMarkerKey = (workspaceId: string) => ({
  pk: correlationRulePartition(workspaceId),
  sk: '#RULES_WRITTEN',
});

export const RULE_TYPE = 'CORRELATION_RULE';
export const MARKER_TYPE = 'CORRELATION_RULES_WRITTEN';

export const ruleToItem = (workspaceId: string, rule: CorrelationRule): Record<string, unknown> => ({
  ...correlationRuleItemKey(workspaceId, rule.id),
  type: RULE_TYPE,
  workspaceId,
  ...rule,
});

export const markerToItem = (workspaceId: string, at: string): Record<string, unknown> => ({
  ...rulesWrittenMarkerKey(workspaceId),
  type: MARKER_TYPE,
  workspaceId,
  createdAt: at,
});

export const ruleFromItem = (workspaceId: string, item: Record<string, unknown>): CorrelationRule => {
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
    isDefault: item.isDefault === true,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
};
