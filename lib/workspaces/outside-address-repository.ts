import { getItem } from '#lib/store/items.ts';
import { updateIf, updateItem } from '#lib/store/conditional-writes.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';

/** PENDING: named, not confirmed; nothing but the confirmation mail goes to it. CONFIRMED: paged like a member. */
type OutsideAddressStatus = 'PENDING' | 'CONFIRMED';

/** An address outside the workspace's members that an ADMIN named as a recipient (docs/security.md). */
export interface OutsideAddress {
  address: string;
  status: OutsideAddressStatus;
  /** What it was named as, in words ("the IMS alert address", "escalation contact of SLA policy Checkout"). */
  namedAs: string[];
  /** The ADMIN who named it last, by name. */
  namedBy: string;
  /** When the last confirmation mail went out. */
  mailedAt: string;
  confirmedAt?: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * One partition per workspace (`{W}#OUTSIDE`), an address at its lower-cased self: a workspace names a handful,
 * so the delivery check and the listing are one Query.
 */
const partition = (workspaceId: string): string => workspaceKey(workspaceId, 'OUTSIDE');
const addressKey = (workspaceId: string, address: string) => ({ pk: partition(workspaceId), sk: address });

const fromItem = (workspaceId: string, item: Record<string, unknown>): OutsideAddress => {
  if (item.workspaceId !== workspaceId) throw new Error('an outside address of another workspace was read');
  return {
    address: item.address as string,
    status: item.status as OutsideAddressStatus,
    namedAs: [...new Set(item.namedAs as string[])],
    namedBy: item.namedBy as string,
    mailedAt: item.mailedAt as string,
    ...(typeof item.confirmedAt === 'string' && { confirmedAt: item.confirmedAt }),
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const outsideAddressRepository = (table: Table, workspaceId: string) => {
  const getAddress = async (address: string): Promise<OutsideAddress | undefined> => {
    const item = await getItem(table, addressKey(workspaceId, address));
    return item && fromItem(workspaceId, item);
  };

  /** In address order. */
  const listAddresses = async (): Promise<OutsideAddress[]> =>
    (
      await queryAll(table, {
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': partition(workspaceId) },
      })
    ).map((item) => fromItem(workspaceId, item));

  /**
   * Records the naming: a new address PENDING, one already known keeps its status and gains the use. Answers
   * whether this naming may mail it: true only when it is not CONFIRMED and the last mail is older than
   * `mailedBefore`, and then `mailedAt` moves to `now` in the same conditional write, so two namings at once
   * mail it once.
   */
  const recordNaming = async (
    address: string,
    { namedAs, namedBy, now, mailedBefore }: { namedAs: string; namedBy: string; now: string; mailedBefore: string },
  ): Promise<boolean> => {
    const key = addressKey(workspaceId, address);
    const knownUse = (await getAddress(address))?.namedAs.includes(namedAs) ?? false;
    const sets = [
      'workspaceId = :w',
      'address = :a',
      '#status = if_not_exists(#status, :pending)',
      'namedBy = :by',
      'createdAt = if_not_exists(createdAt, :now)',
      'updatedAt = :now',
      ...(knownUse ? [] : ['namedAs = list_append(if_not_exists(namedAs, :none), :as)']),
    ];
    const values = {
      ':w': workspaceId,
      ':a': address,
      ':pending': 'PENDING',
      ':by': namedBy,
      ':now': now,
      ...(!knownUse && { ':none': [], ':as': [namedAs] }),
    };
    const names = { '#status': 'status' };
    const mailed = await updateIf(table, key, {
      UpdateExpression: `SET ${[...sets, 'mailedAt = :now'].join(', ')}`,
      ConditionExpression: 'attribute_not_exists(pk) OR (#status = :pending AND mailedAt < :before)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ...values, ':before': mailedBefore },
    });
    if (mailed) return true;
    await updateItem(table, key, {
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    });
    return false;
  };

  /** PENDING to CONFIRMED; undefined when the address is not named in this workspace. */
  const confirmAddress = async (address: string, now: string): Promise<OutsideAddress | undefined> => {
    const item = await updateIf(table, addressKey(workspaceId, address), {
      UpdateExpression: 'SET #status = :confirmed, confirmedAt = if_not_exists(confirmedAt, :now), updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':confirmed': 'CONFIRMED', ':now': now },
    });
    return item && fromItem(workspaceId, item);
  };

  return { getAddress, listAddresses, recordNaming, confirmAddress };
};
