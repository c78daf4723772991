import { type AccountScope, systemScope } from '#lib/identity/scope.ts';
import { directoryWorkspaceIds } from '#lib/workspaces/workspace-repository.ts';
import { signalRepository } from '#lib/signals/signal-repository.ts';
import type { CorrelationMessage } from './correlation-message.ts';
import { rollUpIngestedHours } from '#lib/signals/ingested-rollup.ts';

/** A signal pending longer than this lost its queue message, or the message is stuck: send it again. */
export const PENDING_GRACE_MS = 2 * 60_000;

export interface SweepResult {
  workspaces: number;
  enqueued: number;
  /** New signals of hours that are over, moved from the signal counter to the hourly rollups. */
  rolledUp: number;
}

/**
 * The correlation sweep (docs/data-model.md 6): every workspace's signals still pending correlation
 * two minutes after they were received go to the correlation queue again. Their first message was lost
 * (a crash between storing and sending) or has not succeeded yet; correlation is idempotent, so a
 * signal whose message is merely slow is correlated once all the same. It also rolls the hours that are
 * over up from the signal counter, which ingestion counts in with the signal's own counters.
 */
export const sweepPendingSignals = async ({ ports }: AccountScope, now: Date): Promise<SweepResult> => {
  const { table, queue } = ports;
  const before = new Date(now.getTime() - PENDING_GRACE_MS);
  const result: SweepResult = { workspaces: 0, enqueued: 0, rolledUp: 0 };
  for (const workspaceId of await directoryWorkspaceIds(table)) {
    result.workspaces += 1;
    result.rolledUp += await rollUpIngestedHours(systemScope(workspaceId, ports), now);
    const signalIds = await signalRepository(table, workspaceId).pendingSignalIds(before);
    if (signalIds.length === 0) continue;
    await queue.send(
      'correlation',
      signalIds.map((signalId): CorrelationMessage => ({ workspaceId, signalId, kind: 'correlate' })),
    );
    result.enqueued += signalIds.length;
  }
  return result;
};
