import { fingerprintOf } from './fingerprint.ts';
import type { SignalEvent } from './signal-event.ts';
import type { SignalStatus } from './signal.ts';
import type { SignalInput } from './schemas.ts';
import { storeSignal } from './store-signal-event.ts';
import type { Scope } from '#lib/identity/scope.ts';

/** The event type of a signal posted without one. */
export const DEFAULT_SIGNAL_TYPE = 'signal';

/**
 * A posted signal as a trigger event. Its identity is `metadata.fingerprint` when given, else source, name
 * and serviceId, so posting the same signal again merges into it.
 */
export const signalEventOf = (input: SignalInput, receivedAt: Date): SignalEvent => {
  const metadata = input.metadata ?? {};
  const given = metadata.fingerprint;
  return {
    signal: {
      name: input.name,
      source: input.source,
      type: input.type ?? DEFAULT_SIGNAL_TYPE,
      severity: input.severity,
      ...(input.serviceId !== undefined && { serviceId: input.serviceId }),
      ...(input.value !== undefined && { value: input.value }),
      metadata,
      triggeredAt: input.triggeredAt ? new Date(input.triggeredAt).toISOString() : receivedAt.toISOString(),
    },
    fingerprint: typeof given === 'string' ? given : fingerprintOf(input.source, input.name, input.serviceId ?? ''),
    action: 'trigger',
  };
};

export interface CreatedSignal {
  id: string;
  status: SignalStatus;
  createdAt: string;
  /** Merged into the open signal of the same identity. */
  deduplicated: boolean;
  /** The table was busy: the signal is queued under `id` and written shortly. */
  queued: boolean;
}

/** Stores a posted signal like any ingested event; a merge answers with the signal it joined. */
export const createSignal = async (scope: Scope, input: SignalInput): Promise<CreatedSignal> => {
  const stored = await storeSignal(scope, { event: signalEventOf(input, scope.ports.clock.now()) });
  return {
    id: stored.signalId,
    status: stored.signal?.status ?? 'OPEN',
    createdAt: stored.signal?.createdAt ?? stored.receivedAt,
    deduplicated: stored.deduplicated,
    queued: stored.queued,
  };
};
