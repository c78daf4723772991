import type { Scope } from '#lib/identity/scope.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import type { Signal } from '#lib/signals/signal.ts';
import type { CorrelationBatch } from './correlation-batch.ts';

/** Holding a signal is rare beside correlating it: the signal moves are a chunk loaded by the first. */
const signalMoves = onFirstUse(() => import('#lib/signals/signal-service.ts'));
/** A chunk loaded by the first signal that names a service, so the worker's cold start stays as it was. */
const maintenance = onFirstUse(() => import('#lib/maintenance/maintenance-window-service.ts'));

/**
 * Whether a maintenance window of the signal's service was open when the signal was received
 * (docs/heartbeats.md, "Maintenance windows"); if so the signal is resolved with a note naming the window,
 * so it is kept and shown, opens no incident and pages nobody. Resolved rather than suppressed: a
 * suppressed signal takes in its fingerprint's later events, and the same alert after the window must
 * start a signal of its own, which opens an incident. One Query of the workspace's windows per batch,
 * made by its first signal that names a service.
 */
export const heldForMaintenance = async (scope: Scope, signal: Signal, batch: CorrelationBatch): Promise<boolean> => {
  if (!signal.serviceId) return false;
  const { workspaceWindows, windowCovering } = await maintenance();
  const windows = await batch.maintenanceWindows(scope, () => workspaceWindows(scope));
  const window = windowCovering(windows, { services: [signal.serviceId], instant: new Date(signal.createdAt) });
  if (!window) return false;
  const { moveSignal } = await signalMoves();
  await moveSignal(scope, {
    id: signal.id,
    move: 'resolve',
    note: `Received during maintenance window "${window.reason}" (${window.startsAt} to ${window.endsAt}): no incident opened, nobody paged.`,
  });
  return true;
};
