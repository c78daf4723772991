import { deleteItem, putIfAbsent } from '#lib/store/conditional-writes.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import type { Table } from '#lib/store/table.ts';

/** A claim is only read while its shift start is within the sweep's look-back; TTL collects it a week later. */
const GARBAGE_AFTER_SECONDS = 7 * 24 * 60 * 60;

/** One handoff told (`{W}#HANDOFF` / `<scheduleId>#<shift start>#<userId>`): its existence is the "told once". */
const handoffKey = (workspaceId: string, handoff: Handoff) => ({
  pk: workspaceKey(workspaceId, 'HANDOFF'),
  sk: `${handoff.scheduleId}#${handoff.start}#${handoff.userId}`,
});

export interface Handoff {
  scheduleId: string;
  userId: string;
  /** The instant the member's stretch on call starts (ISO 8601, UTC). */
  start: string;
}

export const handoffRepository = (table: Table, workspaceId: string) => {
  /** False when another sweep claimed (and told) this handoff already: the conditional put is the once. */
  const claimHandoff = (handoff: Handoff, toldAt: string): Promise<boolean> =>
    putIfAbsent(table, {
      ...handoffKey(workspaceId, handoff),
      type: 'HANDOFF',
      workspaceId,
      ...handoff,
      toldAt,
      ttl: Math.floor(Date.parse(handoff.start) / 1000) + GARBAGE_AFTER_SECONDS,
    });
  /** Gives a claim back when its message could not be sent, so the next sweep tries again. */
  const releaseHandoff = (handoff: Handoff): Promise<void> => deleteItem(table, handoffKey(workspaceId, handoff));
  return { claimHandoff, releaseHandoff };
};
