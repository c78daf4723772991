import type { Table } from '#lib/store/table.ts';
import { createHash } from 'node:crypto';
import { workspaceKey } from '#lib/store/keys.ts';
import { putIf } from '#lib/store/conditional-writes.ts';
import { getItem } from '#lib/store/items.ts';

/** A signal counted in a group: its id and when it happened (`signalTime`). */
export interface GroupMember {
  signalId: string;
  at: string;
}

/**
 * CORRELATION_GROUP: the state of one group of one rule (docs/correlation.md). All of it is one item,
 * written whole with a `rev` condition, so concurrent workers agree on the count and on who opens the
 * group's incident.
 */
export interface CorrelationGroup {
  ruleId: string;
  /** Readable: `source=metrics-alerts|serviceId=checkout`. */
  groupKey: string;
  /** Signals counted towards the threshold since the group last opened an incident, within the window. */
  members: GroupMember[];
  /** The group's latest incident; new signals join it while it is neither RESOLVED nor CLOSED. */
  incidentId: string | null;
  openedAt: string | null;
  /** Signals that opened `incidentId` and may not be linked yet (a worker stopped halfway); any worker finishes them. */
  linking: string[];
  /**
   * A worker is opening the group's incident for `signalId`; `attempt` is unique to that worker's try, so
   * even a second delivery of the same signal waits for it, or takes over once it is stale.
   */
  opening: { signalId: string; attempt: string; at: string } | null;
  /** 0 when the group has no item yet. */
  rev: number;
}

const correlationGroupPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'CORGROUP');

/** The group key is free text of any length, so the sort key holds a hash of it. */
const correlationGroupItemKey = (workspaceId: string, ruleId: string, groupKey: string) => ({
  pk: correlationGroupPartition(workspaceId),
  sk: `${ruleId}#${createHash('sha256').update(groupKey).digest('hex').slice(0, 32)}`,
});

const groupToItem = (workspaceId: string, group: CorrelationGroup, expiresAt: Date): Record<string, unknown> => ({
  ...correlationGroupItemKey(workspaceId, group.ruleId, group.groupKey),
  type: 'CORRELATION_GROUP',
  workspaceId,
  ...group,
  expiresAt: expiresAt.toISOString(),
  ttl: Math.floor(expiresAt.getTime() / 1_000),
});

const emptyGroup = (ruleId: string, groupKey: string, rev = 0): CorrelationGroup => ({
  ruleId,
  groupKey,
  members: [],
  incidentId: null,
  openedAt: null,
  linking: [],
  opening: null,
  rev,
});

/** An expired group reads as empty (TTL deletes late, or never locally), keeping its `rev` for the next write. */
const groupFromItem = (workspaceId: string, item: Record<string, unknown>, now: Date): CorrelationGroup => {
  if (item.workspaceId !== workspaceId) throw new Error('a correlation group of another workspace was read');
  const ruleId = item.ruleId as string;
  const groupKey = item.groupKey as string;
  const rev = item.rev as number;
  if (Date.parse(item.expiresAt as string) <= now.getTime()) return emptyGroup(ruleId, groupKey, rev);
  return {
    ruleId,
    groupKey,
    members: (item.members as GroupMember[] | undefined) ?? [],
    incidentId: (item.incidentId as string | null | undefined) ?? null,
    openedAt: (item.openedAt as string | null | undefined) ?? null,
    linking: (item.linking as string[] | undefined) ?? [],
    opening: (item.opening as CorrelationGroup['opening'] | undefined) ?? null,
    rev,
  };
};

/** A group untouched this long is forgotten: its next signal starts counting afresh and opens a new incident. */
const GROUP_LIFETIME_MS = 30 * 24 * 60 * 60 * 1_000;

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const correlationGroupRepository = (table: Table, workspaceId: string) => {
  const readGroup = async (ruleId: string, groupKey: string, now: Date): Promise<CorrelationGroup> => {
    const Item = await getItem(table, correlationGroupItemKey(workspaceId, ruleId, groupKey));
    return Item ? groupFromItem(workspaceId, Item, now) : emptyGroup(ruleId, groupKey);
  };

  /**
   * Writes the group's next state if it is still at the `rev` it was read at; false when another worker
   * wrote it in between (re-read and decide again).
   */
  const writeGroup = async (next: Omit<CorrelationGroup, 'rev'>, readRev: number, now: Date): Promise<boolean> => {
    return putIf(
      table,
      groupToItem(workspaceId, { ...next, rev: readRev + 1 }, new Date(now.getTime() + GROUP_LIFETIME_MS)),
      {
        ConditionExpression: readRev === 0 ? 'attribute_not_exists(sk)' : 'rev = :rev',
        ...(readRev !== 0 && { ExpressionAttributeValues: { ':rev': readRev } }),
      },
    );
  };
  return { readGroup, writeGroup };
};
