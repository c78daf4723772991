import { putIf } from '#lib/store/conditional-writes.ts';
import { getItem } from '#lib/store/items.ts';
import { storedFields } from '#lib/store/item-values.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import type { Table } from '#lib/store/table.ts';
import type { SilentHoursRule } from './silent-hours.ts';

/** The workspace's whole set of rules, read and written as one item (docs/data-model.md 5.11). */
export interface SilentHoursSet {
  rules: SilentHoursRule[];
  /** 0 when the workspace never wrote a set. */
  rev: number;
}

const setItemKey = (workspaceId: string) => ({ pk: workspaceKey(workspaceId), sk: 'SILENT_HOURS' });

const ruleFromItem = (rule: Record<string, unknown>): SilentHoursRule => ({
  ...storedFields<SilentHoursRule>()(rule, ['id', 'name', 'startTime', 'endTime', 'timezone', 'teamScope', 'isActive']),
  daysOfWeek: (rule.daysOfWeek as number[]).map(Number),
});

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const silentHoursRepository = (table: Table, workspaceId: string) => {
  const readSet = async (): Promise<SilentHoursSet> => {
    const item = await getItem(table, setItemKey(workspaceId));
    if (item && item.workspaceId !== workspaceId) throw new Error('silent hours read outside their workspace');
    return {
      rules: ((item?.rules as Record<string, unknown>[] | undefined) ?? []).map(ruleFromItem),
      rev: (item?.rev as number | undefined) ?? 0,
    };
  };

  /**
   * Writes the whole set if nobody wrote it since it was read at `readRev`; false if somebody did. One
   * PutItem, so a reader sees the old set or the new one, never a mix.
   */
  const writeSet = async (rules: readonly SilentHoursRule[], readRev: number, updatedAt: string): Promise<boolean> =>
    putIf(
      table,
      { ...setItemKey(workspaceId), type: 'SILENT_HOURS', workspaceId, rules, rev: readRev + 1, updatedAt },
      {
        ConditionExpression: readRev === 0 ? 'attribute_not_exists(sk)' : 'rev = :read',
        ...(readRev !== 0 && { ExpressionAttributeValues: { ':read': readRev } }),
      },
    );
  return { readSet, writeSet };
};
