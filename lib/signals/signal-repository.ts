import type { Page, PageRequest } from '#lib/store/pages.ts';
import type { Ports } from '#lib/ports/ports.ts';
import { countAll, type QueryInput, queryAll } from '#lib/store/queries.ts';
import { ulidFloor } from '#lib/ports/ids.ts';
import { queryPage } from '#lib/store/pages.ts';
import type { Table } from '#lib/store/table.ts';
import {
  MERGING_STATUSES,
  MOVES,
  type Signal,
  type SignalMove,
  type SignalNote,
  type SignalOrigin,
  type SignalStatus,
  type SignalSummary,
  signalSummary,
} from './signal.ts';
import {
  pendingCorrelationPartition,
  signalFromItem,
  signalItemKey,
  signalPartition,
  signalServicePartition,
  signalSeverityPartition,
  signalSourcePartition,
  signalStatusKeys,
  signalStatusPartition,
  signalToItem,
} from './signal-item.ts';
import { loadMetadata, metadataObjectOf, storeMetadata } from './signal-metadata.ts';
import { counterHoldsTotal, type SignalListFilter } from './signal-counter.ts';
import { signalCounterRepository } from './signal-counter-repository.ts';
import { type DeliveryMark, holdsMark, marksBeyondKept } from './delivery-mark.ts';
import { putIfAbsent, updateIf } from '#lib/store/conditional-writes.ts';
import { findItem, getItem } from '#lib/store/items.ts';

/**
 * Writes a new signal, its metadata object first when the metadata does not fit the item, with the mark
 * of the delivery that started it; false when a signal with this id already exists (a retry of the same
 * write, whose object this rewrote unchanged).
 */
export const insertSignal = async (
  { table, objects }: Pick<Ports, 'table' | 'objects'>,
  workspaceId: string,
  signal: Signal,
  origin: SignalOrigin,
  delivery?: DeliveryMark,
): Promise<boolean> => {
  const metadataAttributes = await storeMetadata(objects, workspaceId, signal.id, signal.metadata);
  return putIfAbsent(table, {
    ...signalToItem(workspaceId, signal, origin, metadataAttributes),
    ...(delivery && { [delivery]: Date.parse(signal.firstSeenAt) }),
  });
};

/** The signal with all of its metadata, from its object when the item holds only a preview. */
export const findWholeSignal = async (
  { table, objects }: Pick<Ports, 'table' | 'objects'>,
  workspaceId: string,
  signalId: string,
): Promise<Signal | undefined> => {
  const Item = await getItem(table, signalItemKey(workspaceId, signalId));
  if (!Item) return undefined;
  const signal = signalFromItem(Item, workspaceId);
  const object = metadataObjectOf(Item);
  return object ? { ...signal, metadata: await loadMetadata(objects, object) } : signal;
};

const statusValues = (statuses: readonly SignalStatus[]): Record<string, SignalStatus> =>
  Object.fromEntries(statuses.map((status, index) => [`:from${index}`, status]));

/** `#status IN (:from0, ...)` for the states a write may start from. */
const statusCondition = (statuses: readonly SignalStatus[]): string =>
  `attribute_exists(sk) AND #status IN (${Object.keys(statusValues(statuses)).join(', ')})`;

const AT_FIELD: Record<SignalMove, 'acknowledgedAt' | 'resolvedAt' | 'suppressedAt'> = {
  acknowledge: 'acknowledgedAt',
  resolve: 'resolvedAt',
  suppress: 'suppressedAt',
};

export interface MoveRequest {
  move: SignalMove;
  at: string;
  note?: SignalNote;
  /** A resolving event from a sender is also when the signal was last seen. */
  seen?: boolean;
  /** The sender's delivery of that event, recorded so its retry is recognised. */
  delivery?: DeliveryMark;
}

export type MoveOutcome =
  /** `metadataObject`: the signals' metadata is only previewed; the whole is that object. */
  | { kind: 'moved'; before: Signal; after: Signal; metadataObject?: string }
  | { kind: 'missing' }
  | { kind: 'conflict'; current: Signal };

/**
 * The partition of the first filter that has an index (service, then status, then source, then severity,
 * then all signals), the other filters as a FilterExpression. Every partition sorts by signal id, a ULID
 * at receipt. A service comes first: its partition is the narrowest (a status holds every service's).
 */
const listQuery = (workspaceId: string, { status, severity, sourceKey, serviceKey }: SignalListFilter): QueryInput => {
  const filters: Record<string, { attribute: string; value: string }> = {};
  const partition = (indexName: 'gsi1' | 'gsi2' | 'gsi4' | 'gsi5' | undefined, pk: string): QueryInput => ({
    ...(indexName && { IndexName: indexName }),
    KeyConditionExpression: `${indexName ? `${indexName}pk` : 'pk'} = :pk`,
    ExpressionAttributeValues: { ':pk': pk },
  });
  let key: QueryInput;
  if (serviceKey) {
    key = partition('gsi5', signalServicePartition(workspaceId, serviceKey));
    if (status) filters.status = { attribute: 'status', value: status };
    if (sourceKey) filters.sourceKey = { attribute: 'sourceKey', value: sourceKey };
  } else if (status) {
    key = partition('gsi1', signalStatusPartition(workspaceId, status));
    if (sourceKey) filters.sourceKey = { attribute: 'sourceKey', value: sourceKey };
  } else if (sourceKey) {
    key = partition('gsi2', signalSourcePartition(workspaceId, sourceKey));
  } else if (severity) {
    key = partition('gsi4', signalSeverityPartition(workspaceId, severity));
  } else {
    key = partition(undefined, signalPartition(workspaceId));
  }
  if (severity && (status || sourceKey || serviceKey)) filters.severity = { attribute: 'severity', value: severity };
  const entries = Object.values(filters);
  if (entries.length === 0) return key;
  return {
    ...key,
    FilterExpression: entries.map((_filter, index) => `#f${index} = :f${index}`).join(' AND '),
    ExpressionAttributeNames: Object.fromEntries(entries.map(({ attribute }, index) => [`#f${index}`, attribute])),
    ExpressionAttributeValues: {
      ...key.ExpressionAttributeValues,
      ...Object.fromEntries(entries.map(({ value }, index) => [`:f${index}`, value])),
    },
  };
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const signalRepository = (table: Table, workspaceId: string) => {
  const findSignal = async (signalId: string): Promise<Signal | undefined> => {
    return findItem(table, signalItemKey(workspaceId, signalId), (item) => signalFromItem(item, workspaceId));
  };

  /**
   * Counts one more event in a signal that still merges (OPEN, ACKNOWLEDGED or SUPPRESSED) and has not
   * counted this delivery, recording the delivery's mark and removing `stale` marks in the same write.
   * Undefined when there is no such signal, it is RESOLVED, or it counted the delivery already
   * (`findMergeTarget` tells which); else the signal and its marks beyond the kept ones.
   */
  const mergeOccurrence = async (
    signalId: string,
    seenAt: string,
    delivery: DeliveryMark | undefined,
    stale: readonly DeliveryMark[],
  ): Promise<{ signal: Signal; staleMarks: DeliveryMark[] } | undefined> => {
    const removed = stale.filter((mark) => mark !== delivery);
    const item = await updateIf(table, signalItemKey(workspaceId, signalId), {
      UpdateExpression: [
        `ADD occurrences :one SET lastSeenAt = :seenAt, updatedAt = :seenAt${delivery ? ', #mark = :at' : ''}`,
        ...(removed.length > 0 ? [`REMOVE ${removed.map((_mark, index) => `#stale${index}`).join(', ')}`] : []),
      ].join(' '),
      ConditionExpression: delivery
        ? `${statusCondition(MERGING_STATUSES)} AND attribute_not_exists(#mark)`
        : statusCondition(MERGING_STATUSES),
      ExpressionAttributeNames: {
        '#status': 'status',
        ...(delivery && { '#mark': delivery }),
        ...Object.fromEntries(removed.map((mark, index) => [`#stale${index}`, mark])),
      },
      ExpressionAttributeValues: {
        ':one': 1,
        ':seenAt': seenAt,
        ...statusValues(MERGING_STATUSES),
        ...(delivery && { ':at': Date.parse(seenAt) }),
      },
    });
    return item && { signal: signalFromItem(item, workspaceId), staleMarks: marksBeyondKept(item) };
  };

  /** The signal a merge was refused by, and whether it holds the delivery's mark (it counted that delivery). */
  const findMergeTarget = async (
    signalId: string,
    delivery?: DeliveryMark,
  ): Promise<{ signal: Signal; counted: boolean } | undefined> => {
    const item = await getItem(table, signalItemKey(workspaceId, signalId));
    if (!item) return undefined;
    return { signal: signalFromItem(item, workspaceId), counted: delivery !== undefined && holdsMark(item, delivery) };
  };

  /**
   * Moves a signal to the move's status if it is in one of the states the move starts from. On a refusal
   * nothing is written, and the current signal tells "no such signal" from "not from this state".
   */
  const writeSignalMove = async (
    signalId: string,
    { move, at, note, seen = false, delivery }: MoveRequest,
  ): Promise<MoveOutcome> => {
    const { to, from } = MOVES[move];
    const atField = AT_FIELD[move];
    const sets = ['#status = :to', 'gsi1pk = :gsi1pk', 'gsi1sk = :gsi1sk', `${atField} = :at`, 'updatedAt = :at'];
    if (seen) sets.push('lastSeenAt = :at');
    if (delivery) sets.push('#mark = :markedAt');
    if (note) sets.push('notes = list_append(if_not_exists(notes, :noNotes), :notes)');
    const { gsi1pk, gsi1sk } = signalStatusKeys(workspaceId, { id: signalId, status: to });
    const old = await updateIf(
      table,
      signalItemKey(workspaceId, signalId),
      {
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: statusCondition(from),
        ExpressionAttributeNames: { '#status': 'status', ...(delivery && { '#mark': delivery }) },
        ExpressionAttributeValues: {
          ...(delivery && { ':markedAt': Date.parse(at) }),
          ':to': to,
          ':gsi1pk': gsi1pk,
          ':gsi1sk': gsi1sk,
          ':at': at,
          ...(note && { ':noNotes': [], ':notes': [note] }),
          ...statusValues(from),
        },
      },
      'ALL_OLD',
    );
    if (!old) {
      const current = await findSignal(signalId);
      return current ? { kind: 'conflict', current } : { kind: 'missing' };
    }
    const before = signalFromItem(old, workspaceId);
    const after: Signal = {
      ...before,
      status: to,
      [atField]: at,
      updatedAt: at,
      ...(seen && { lastSeenAt: at }),
      notes: note ? [...before.notes, note] : before.notes,
    };
    const metadataObject = metadataObjectOf(old);
    return { kind: 'moved', before, after, ...(metadataObject && { metadataObject }) };
  };

  /** Newest received first, with the total from the counter; summaries, without metadata. */
  const querySignals = async (filter: SignalListFilter, page: PageRequest): Promise<Page<SignalSummary>> => {
    const query = listQuery(workspaceId, filter);
    return queryPage(
      table,
      { ...query, ScanIndexForward: false },
      page,
      (item) => signalSummary(signalFromItem(item, workspaceId)),
      // A service with severity or source has no counter: its index partition is counted, keys only.
      () =>
        counterHoldsTotal(filter)
          ? signalCounterRepository(table, workspaceId).readSignalTotal(filter)
          : countAll(table, query),
    );
  };
  /** The ids of the signals still pending correlation that were received before `before` (gsi3, sparse). */
  const pendingSignalIds = async (before: Date): Promise<string[]> => {
    const items = await queryAll(table, {
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk < :before',
      ExpressionAttributeValues: { ':pk': pendingCorrelationPartition(workspaceId), ':before': ulidFloor(before) },
      ProjectionExpression: 'gsi3sk',
    });
    return items.map((item) => item.gsi3sk as string);
  };

  return { findSignal, mergeOccurrence, findMergeTarget, writeSignalMove, querySignals, pendingSignalIds };
};
