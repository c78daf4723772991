import type { Scope } from '#lib/identity/scope.ts';
import type { Signal } from './signal.ts';

/**
 * Hands a resolved signal of an incident to the correlation worker (a `resolved` message of the
 * correlation queue, lib/correlation/correlation-message.ts), which tells the incident when all of its
 * signals have resolved. A queue message, not a table operation, so resolving costs the request nothing
 * more; a signal without an incident has nothing to tell.
 */
export const followResolution = async ({ ports, workspaceId }: Scope, signal: Signal): Promise<void> => {
  if (signal.status !== 'RESOLVED' || !signal.incidentId) return;
  await ports.queue.send('correlation', [{ workspaceId, signalId: signal.id, kind: 'resolved' }]);
};

/**
 * Hands a signal of an incident that its sender acknowledged to the correlation worker (an `acknowledged`
 * message), which acknowledges the incident if it is still OPEN, as a paging tool's acknowledge does.
 */
export const followAcknowledgement = async ({ ports, workspaceId }: Scope, signal: Signal): Promise<void> => {
  if (signal.status !== 'ACKNOWLEDGED' || !signal.incidentId) return;
  await ports.queue.send('correlation', [{ workspaceId, signalId: signal.id, kind: 'acknowledged' }]);
};
