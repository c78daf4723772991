import { assertOfWorkspace, storedFields, textsOrNull } from '#lib/store/item-values.ts';
import { filterKey } from '#lib/store/filter-key.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import type { Signal, SignalNote, SignalOrigin, SignalSeverity, SignalStatus } from './signal.ts';
import { itemMetadata } from './signal-metadata.ts';

/** SIGNAL items (docs/data-model.md 5.7): base `{W}#SIG` by id (a ULID at receipt), so newest first is key order. */
export const signalPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'SIG');

export const signalItemKey = (workspaceId: string, signalId: string) => ({
  pk: signalPartition(workspaceId),
  sk: signalId,
});

/** gsi1: the signals in one status. */
export const signalStatusPartition = (workspaceId: string, status: SignalStatus): string =>
  workspaceKey(workspaceId, 'SIG', 'STATUS', status);

/** gsi2: the signals of one source (its normalised key). */
export const signalSourcePartition = (workspaceId: string, sourceKey: string): string =>
  workspaceKey(workspaceId, 'SIG', 'SOURCE', sourceKey);

/** gsi4: the signals of one severity, which no write changes after the first. */
export const signalSeverityPartition = (workspaceId: string, severity: SignalSeverity): string =>
  workspaceKey(workspaceId, 'SIG', 'SEVERITY', severity);

/** gsi5, sparse: the signals of one service (its normalised `serviceId`), which no write changes after the first. */
export const signalServicePartition = (workspaceId: string, serviceKey: string): string =>
  workspaceKey(workspaceId, 'SIG', 'SERVICE', serviceKey);

/** gsi3, sparse: trigger signals awaiting correlation; correlation REMOVEs the keys, the sweep reads the rest. */
export const pendingCorrelationPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'SIG', 'PENDING');

export const sourceKeyOf = (source: string): string => filterKey(source);

export const serviceKeyOf = (serviceId: string): string => filterKey(serviceId);

/** The gsi1 attributes for a status; a move SETs them with the status. */
export const signalStatusKeys = (workspaceId: string, signal: Pick<Signal, 'id' | 'status'>) => ({
  gsi1pk: signalStatusPartition(workspaceId, signal.status),
  gsi1sk: signal.id,
});

const pendingCorrelationKeys = (workspaceId: string, signalId: string) => ({
  gsi3pk: pendingCorrelationPartition(workspaceId),
  gsi3sk: signalId,
});

const signalIndexKeys = (workspaceId: string, signal: Signal) => ({
  ...signalStatusKeys(workspaceId, signal),
  gsi2pk: signalSourcePartition(workspaceId, sourceKeyOf(signal.source)),
  gsi2sk: signal.id,
  gsi4pk: signalSeverityPartition(workspaceId, signal.severity),
  gsi4sk: signal.id,
  ...(signal.serviceId && {
    gsi5pk: signalServicePartition(workspaceId, serviceKeyOf(signal.serviceId)),
    gsi5sk: signal.id,
  }),
});

/**
 * The item of a new signal. Only a new trigger signal enters the pending-correlation index; `origin` is
 * kept so correlation can tell informational signals from triggers. `metadataAttributes` are those of
 * `storeMetadata`: the metadata as JSON text, or a reference to it and a preview.
 */
export const signalToItem = (
  workspaceId: string,
  signal: Signal,
  origin: SignalOrigin,
  metadataAttributes: Record<string, unknown>,
): Record<string, unknown> => {
  const {
    type,
    serviceId,
    value,
    incidentId,
    acknowledgedAt,
    resolvedAt,
    suppressedAt,
    metadata: _metadata,
    ...rest
  } = signal;
  const optional = { serviceId, value, incidentId, acknowledgedAt, resolvedAt, suppressedAt };
  return {
    ...signalItemKey(workspaceId, signal.id),
    ...signalIndexKeys(workspaceId, signal),
    ...(origin === 'trigger' && signal.status === 'OPEN' && pendingCorrelationKeys(workspaceId, signal.id)),
    type: 'SIGNAL',
    workspaceId,
    ...rest,
    ...metadataAttributes,
    signalType: type,
    sourceKey: sourceKeyOf(signal.source),
    origin,
    ...Object.fromEntries(Object.entries(optional).filter(([, field]) => field !== null)),
  };
};

/**
 * The signal an item holds. Its metadata is the item's: whole, or only the preview when the whole is an
 * object (`metadataObjectOf`), which is enough for correlation; routes that answer one signal load the rest.
 */
export const signalFromItem = (item: Record<string, unknown>, workspaceId: string): Signal => {
  assertOfWorkspace(item, workspaceId, `signal ${String(item.id)}`);
  return {
    ...storedFields<Signal>()(item, [
      'id',
      'name',
      'source',
      'severity',
      'status',
      'triggeredAt',
      'fingerprint',
      'occurrences',
      'firstSeenAt',
      'lastSeenAt',
      'createdAt',
      'updatedAt',
    ]),
    type: item.signalType as string,
    ...textsOrNull(item, ['serviceId', 'incidentId', 'acknowledgedAt', 'resolvedAt', 'suppressedAt']),
    value: typeof item.value === 'number' ? item.value : null,
    metadata: itemMetadata(item),
    notes: (item.notes as SignalNote[] | undefined) ?? [],
  };
};
