import { deleteIfPresent, putNew, updateIf, updateIfPresent } from '#lib/store/conditional-writes.ts';
import { findItem } from '#lib/store/items.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import type { Heartbeat } from './heartbeat.ts';
import type { HeartbeatInput } from './schemas.ts';

/** HEARTBEAT items, one per heartbeat, in one partition per workspace (docs/data-model.md 5.19). */
const partition = (workspaceId: string): string => workspaceKey(workspaceId, 'HEARTBEAT');
const itemKey = (workspaceId: string, id: string) => ({ pk: partition(workspaceId), sk: id });

const optional = (value: unknown): string | null => (typeof value === 'string' ? value : null);

const fromItem = (workspaceId: string, item: Record<string, unknown>): Heartbeat => {
  if (item.workspaceId !== workspaceId) throw new Error('a heartbeat of another workspace was read');
  return {
    id: item.id as string,
    name: item.name as string,
    intervalSeconds: Number(item.intervalSeconds),
    graceSeconds: Number(item.graceSeconds),
    serviceId: optional(item.serviceId),
    priority: item.priority as Heartbeat['priority'],
    paused: item.paused === true,
    secret: item.secret as string,
    lastPingAt: optional(item.lastPingAt),
    downSince: optional(item.downSince),
    downSignalId: optional(item.downSignalId),
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const heartbeatRepository = (table: Table, workspaceId: string) => {
  const read = (item: Record<string, unknown>) => fromItem(workspaceId, item);

  const insertHeartbeat = async (heartbeat: Heartbeat): Promise<void> => {
    const { serviceId, lastPingAt, downSince, downSignalId, ...fields } = heartbeat;
    await putNew(table, {
      ...itemKey(workspaceId, heartbeat.id),
      type: 'HEARTBEAT',
      workspaceId,
      ...fields,
      ...(serviceId !== null && { serviceId }),
    });
  };

  const findHeartbeat = (id: string): Promise<Heartbeat | undefined> => findItem(table, itemKey(workspaceId, id), read);

  /** A workspace has few heartbeats: one Query reads them all, for the list and for the sweep. */
  const queryHeartbeats = async (): Promise<Heartbeat[]> =>
    (
      await queryAll(table, {
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': partition(workspaceId) },
      })
    ).map(read);

  /** Every writable field as given; the ping URL, last ping and an open outage stay. Undefined when absent. */
  const replaceHeartbeat = async (id: string, input: HeartbeatInput, at: string): Promise<Heartbeat | undefined> => {
    const { serviceId, ...fields } = input;
    const names = Object.keys(fields);
    const item = await updateIfPresent(table, itemKey(workspaceId, id), {
      UpdateExpression: [
        `SET ${[...names, 'updatedAt'].map((name) => `#${name} = :${name}`).join(', ')}${serviceId ? ', #serviceId = :serviceId' : ''}`,
        ...(serviceId ? [] : ['REMOVE #serviceId']),
      ].join(' '),
      ExpressionAttributeNames: Object.fromEntries(
        [...names, 'updatedAt', 'serviceId'].map((name) => [`#${name}`, name]),
      ),
      ExpressionAttributeValues: {
        ...Object.fromEntries(Object.entries(fields).map(([name, value]) => [`:${name}`, value])),
        ':updatedAt': at,
        ...(serviceId && { ':serviceId': serviceId }),
      },
    });
    return item && read(item);
  };

  const removeHeartbeat = async (id: string): Promise<boolean> =>
    (await deleteIfPresent(table, itemKey(workspaceId, id))) !== undefined;

  /**
   * A ping: one conditional write that holds only for the heartbeat's own secret, and no read before it.
   * Undefined when there is no such heartbeat or the secret is not its own.
   */
  const recordPing = async (id: string, secret: string, at: string): Promise<Heartbeat | undefined> => {
    const item = await updateIf(table, itemKey(workspaceId, id), {
      UpdateExpression: 'SET lastPingAt = :at',
      ConditionExpression: 'attribute_exists(pk) AND secret = :secret',
      ExpressionAttributeValues: { ':at': at, ':secret': secret },
    });
    return item && read(item);
  };

  /**
   * The sweep's mark that it raised the missed heartbeat's signal; false when a ping came in since it read
   * the heartbeat (so the signal it raised is resolved at once) or another sweep marked it first.
   */
  const markDown = async (heartbeat: Heartbeat, signalId: string, at: string): Promise<boolean> => {
    const item = await updateIf(table, itemKey(workspaceId, heartbeat.id), {
      UpdateExpression: 'SET downSince = :at, downSignalId = :signalId',
      ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(downSince) AND ${
        heartbeat.lastPingAt ? 'lastPingAt = :lastPingAt' : 'attribute_not_exists(lastPingAt)'
      }`,
      ExpressionAttributeValues: {
        ':at': at,
        ':signalId': signalId,
        ...(heartbeat.lastPingAt && { ':lastPingAt': heartbeat.lastPingAt }),
      },
    });
    return item !== undefined;
  };

  /** Ends the outage the sweep marked, once: only the sweep that clears `signalId` resolves its incident. */
  const clearDown = async (id: string, signalId: string): Promise<boolean> => {
    const item = await updateIf(table, itemKey(workspaceId, id), {
      UpdateExpression: 'REMOVE downSince, downSignalId',
      ConditionExpression: 'downSignalId = :signalId',
      ExpressionAttributeValues: { ':signalId': signalId },
    });
    return item !== undefined;
  };

  return {
    insertHeartbeat,
    findHeartbeat,
    queryHeartbeats,
    replaceHeartbeat,
    removeHeartbeat,
    recordPing,
    markDown,
    clearDown,
  };
};
