import { ConflictError, NotFoundError } from '#lib/contract/errors.ts';
import { fingerprintClaimRepository } from './fingerprint-claim-repository.ts';
import { followResolution } from './follow-resolution.ts';
import { MOVES, isSignalId, type Signal, type SignalMove, type SignalStatus, type SignalSummary } from './signal.ts';
import { moveDelta } from './signal-counter.ts';
import { signalCounterRepository } from './signal-counter-repository.ts';
import { serviceKeyOf, sourceKeyOf } from './signal-item.ts';
import { loadMetadata } from './signal-metadata.ts';
import { findWholeSignal, signalRepository } from './signal-repository.ts';
import type { ListSignalsInput } from './schemas.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { Page } from '#lib/store/pages.ts';

const notFound = (): NotFoundError => new NotFoundError('Signal not found');

/** The whole signal, metadata included however large. */
export const getSignal = async ({ ports, workspaceId }: Scope, signalId: string): Promise<Signal> => {
  const signal = isSignalId(signalId) ? await findWholeSignal(ports, workspaceId, signalId) : undefined;
  if (!signal) throw notFound();
  return signal;
};

export const listSignals = async (
  { ports: { table }, workspaceId }: Scope,
  { page, limit, cursor, status, severity, source, serviceId }: ListSignalsInput,
): Promise<Page<SignalSummary>> =>
  signalRepository(table, workspaceId).querySignals(
    { status, severity, sourceKey: source && sourceKeyOf(source), serviceKey: serviceId && serviceKeyOf(serviceId) },
    { page, limit, cursor },
  );

export interface SignalStats {
  total: number;
  open: number;
  acknowledged: number;
  resolved: number;
  suppressed: number;
  topSources: { source: string; count: number }[];
}

const TOP_SOURCES = 5;

/** From the precomputed counter: one read however many signals there are. Sources are their normalised keys. */
export const signalStats = async ({ ports: { table }, workspaceId }: Scope): Promise<SignalStats> => {
  const { total, byStatus, bySource } = await signalCounterRepository(table, workspaceId).readSignalCounter();
  const topSources = [...bySource]
    .sort(([sourceA, countA], [sourceB, countB]) => countB - countA || sourceA.localeCompare(sourceB))
    .slice(0, TOP_SOURCES)
    .map(([sourceKey, count]) => ({ source: decodeURIComponent(sourceKey), count }));
  return {
    total,
    open: byStatus.OPEN,
    acknowledged: byStatus.ACKNOWLEDGED,
    resolved: byStatus.RESOLVED,
    suppressed: byStatus.SUPPRESSED,
    topSources,
  };
};

const describeFrom = (from: readonly SignalStatus[]): string => from.join(' or ');

/**
 * The write of a move and what always follows it: the counters, and for a resolve the end of the fingerprint's
 * claim, so the next event starts a new signal.
 */
const writeMove = async (scope: Scope, signalId: string, move: SignalMove, note: string | undefined) => {
  const { ports, workspaceId, actor } = scope;
  const at = ports.clock.now().toISOString();
  const outcome = await signalRepository(ports.table, workspaceId).writeSignalMove(signalId, {
    move,
    at,
    ...(note && { note: { move, text: note, by: actor, at } }),
  });
  if (outcome.kind !== 'moved') return outcome;
  const { before, after } = outcome;
  await signalCounterRepository(ports.table, workspaceId).addToSignalCounter(moveDelta(before, after.status));
  if (move === 'resolve') {
    await fingerprintClaimRepository(ports.table, workspaceId).releaseFingerprintClaim(after, after.id);
  }
  return outcome;
};

/**
 * Acknowledge, resolve or suppress, only from the states the move allows (DECISIONS.md); any other move is a
 * 409 with nothing changed. Resolving ends the fingerprint's claim, so the next event starts a new signal;
 * the correlation worker then tells the signal's incident if all of its signals have resolved.
 */
export const moveSignal = async (
  scope: Scope,
  { id: signalId, move, note }: { id: string; move: SignalMove; note: string | undefined },
): Promise<Signal> => {
  if (!isSignalId(signalId)) throw notFound();
  const outcome = await writeMove(scope, signalId, move, note);
  if (outcome.kind === 'missing') throw notFound();
  if (outcome.kind === 'conflict') {
    throw new ConflictError(`A ${outcome.current.status} signal cannot be moved to ${MOVES[move].to}`, [
      `status: ${move} is allowed only from ${describeFrom(MOVES[move].from)}`,
    ]);
  }
  const { after, metadataObject } = outcome;
  if (move === 'resolve') await followResolution(scope, after);
  // Answered like GET one signal: whole.
  return metadataObject ? { ...after, metadata: await loadMetadata(scope.ports.objects, metadataObject) } : after;
};

/**
 * Resolves a signal of an incident being resolved, if it is still open: the table's writes of a move only,
 * since its incident needs no telling and nobody reads the answer. False when it was not open any more.
 */
export const resolveWithIncident = async (scope: Scope, signalId: string, note: string): Promise<boolean> =>
  (await writeMove(scope, signalId, 'resolve', note)).kind === 'moved';
