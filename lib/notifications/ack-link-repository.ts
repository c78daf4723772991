import { putIfAbsent } from '#lib/store/conditional-writes.ts';
import { findItem } from '#lib/store/items.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import type { Table } from '#lib/store/table.ts';

/** A used link is kept a day past its expiry for TTL to collect; its expiry is checked in code first. */
const GARBAGE_AFTER_SECONDS = 24 * 60 * 60;

/** A used acknowledge link (`{W}#ACKLINK` / `<linkId>`): its existence is what makes a link single-use. */
const usedLinkKey = (workspaceId: string, linkId: string) => ({ pk: workspaceKey(workspaceId, 'ACKLINK'), sk: linkId });

export const ackLinkRepository = (table: Table, workspaceId: string) => {
  /** False when the link was used before: the conditional put is the single use. */
  const markLinkUsed = async (linkId: string, { usedAt, expiresAt }: { usedAt: string; expiresAt: string }) =>
    putIfAbsent(table, {
      ...usedLinkKey(workspaceId, linkId),
      type: 'ACK_LINK_USE',
      workspaceId,
      usedAt,
      expiresAt,
      ttl: Math.floor(Date.parse(expiresAt) / 1000) + GARBAGE_AFTER_SECONDS,
    });
  /** When the link was used, for the page that answers its second use. */
  const findLinkUse = (linkId: string): Promise<string | undefined> =>
    findItem(table, usedLinkKey(workspaceId, linkId), (item) => String(item.usedAt));
  return { markLinkUsed, findLinkUse };
};
