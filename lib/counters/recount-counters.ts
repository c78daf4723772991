import { recountIncidents } from '#lib/incidents/incident-counter.ts';
import { log } from '#lib/log/logger.ts';
import type { Ports } from '#lib/ports/ports.ts';
import { recountSignals } from '#lib/signals/signal-counter.ts';
import { directoryWorkspaceIds } from '#lib/workspaces/workspace-repository.ts';

export interface RecountResult {
  workspaces: number;
  signals: number;
  incidents: number;
}

/**
 * The counter recount (docs/data-model.md 6): every workspace's list counters recomputed from the items
 * they count. Counters are ADDed right after their item's write, so a crash in between leaves them off by
 * one; this puts them right. One workspace failing does not stop the others.
 */
export const recountCounters = async ({ table }: Pick<Ports, 'table'>): Promise<RecountResult> => {
  const result: RecountResult = { workspaces: 0, signals: 0, incidents: 0 };
  for (const workspaceId of await directoryWorkspaceIds(table)) {
    try {
      const [signals, incidents] = await Promise.all([
        recountSignals(table, workspaceId),
        recountIncidents(table, workspaceId),
      ]);
      result.workspaces += 1;
      result.signals += signals;
      result.incidents += incidents;
    } catch (error) {
      log.error('counter recount failed for a workspace', { workspaceId, error });
    }
  }
  return result;
};
