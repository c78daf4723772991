import { createHash } from 'node:crypto';
import { workspaceKey } from '#lib/store/keys.ts';
import type { Table } from '#lib/store/table.ts';
import { putIf, updateIf, updateItem } from '#lib/store/conditional-writes.ts';
import { getItem } from '#lib/store/items.ts';

/**
 * DELIVERY (docs/data-model.md 5.7): one sender delivery, so a retry with the same id never counts twice.
 * PROCESSING while its event is being stored, with the id a new signal of it takes (so an attempt that
 * takes over writes the same signal), DONE with the outcome after. Kept 7 days; the expiry is also
 * compared in the write condition, since TTL deletion runs late.
 */
export interface DeliveryRef {
  sender: string;
  id: string;
}

export interface DeliveryOutcome {
  signalId: string;
  deduplicated: boolean;
  resolved: boolean;
}

export type DeliveryRecord =
  | { state: 'PROCESSING'; claimedAt: string; signalId: string | undefined }
  | ({ state: 'DONE'; claimedAt: string } & DeliveryOutcome);

const KEPT_SECONDS = 7 * 24 * 60 * 60;

/** Longer ids are keyed by their hash: a sort key holds 1,024 bytes, and a sender cannot shorten its ids. */
const MAX_KEYED_ID_BYTES = 256;

/** The id as the key holds it: URI-encoded (so ASCII), or `sha256:<hex>` past the limit, which no encoded id can equal. */
const keyedId = (id: string): string => {
  const encoded = encodeURIComponent(id);
  return encoded.length <= MAX_KEYED_ID_BYTES ? encoded : `sha256:${createHash('sha256').update(id).digest('hex')}`;
};

export const deliveryKey = (workspaceId: string, delivery: DeliveryRef) => ({
  pk: workspaceKey(workspaceId, 'DELIVERY'),
  sk: `${encodeURIComponent(delivery.sender)}#${keyedId(delivery.id)}`,
});

const epochSeconds = (instant: Date): number => Math.floor(instant.getTime() / 1000);

const prefixed = (values: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(values).map(([name, value]) => [`:${name}`, value]));

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const deliveryRepository = (table: Table, workspaceId: string) => {
  /** Starts a delivery whose new signal would be `signalId`; false when it is already known (and not expired). */
  const claimDelivery = async (delivery: DeliveryRef, signalId: string, now: Date): Promise<boolean> => {
    return putIf(
      table,
      {
        ...deliveryKey(workspaceId, delivery),
        type: 'DELIVERY',
        workspaceId,
        state: 'PROCESSING',
        claimedAt: now.toISOString(),
        signalId,
        ttl: epochSeconds(now) + KEPT_SECONDS,
      },
      {
        ConditionExpression: 'attribute_not_exists(sk) OR #ttl < :now',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':now': epochSeconds(now) },
      },
    );
  };

  const findDelivery = async (delivery: DeliveryRef): Promise<DeliveryRecord | undefined> => {
    const Item = await getItem(table, deliveryKey(workspaceId, delivery));
    if (!Item) return undefined;
    if (Item.state !== 'DONE') {
      return {
        state: 'PROCESSING',
        claimedAt: Item.claimedAt as string,
        signalId: Item.signalId as string | undefined,
      };
    }
    return {
      state: 'DONE',
      claimedAt: Item.claimedAt as string,
      signalId: Item.signalId as string,
      deduplicated: Item.deduplicated === true,
      resolved: Item.resolved === true,
    };
  };

  /** Takes over a PROCESSING delivery whose claim is `seen`; false when someone else moved it first. */
  const takeOverDelivery = async (delivery: DeliveryRef, seen: string, now: Date): Promise<boolean> => {
    const taken = await updateIf(table, deliveryKey(workspaceId, delivery), {
      UpdateExpression: 'SET claimedAt = :now',
      ConditionExpression: '#state = :processing AND claimedAt = :seen',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':now': now.toISOString(), ':seen': seen, ':processing': 'PROCESSING' },
    });
    return taken !== undefined;
  };

  const completeDelivery = async (delivery: DeliveryRef, outcome: DeliveryOutcome): Promise<void> => {
    await updateItem(table, deliveryKey(workspaceId, delivery), {
      UpdateExpression: 'SET #state = :done, signalId = :signalId, deduplicated = :deduplicated, resolved = :resolved',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':done': 'DONE', ...prefixed(outcome) },
    });
  };
  return { claimDelivery, findDelivery, takeOverDelivery, completeDelivery };
};
