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
