import { assertOfWorkspace, storedFields, textsOrNull } from '#lib/store/item-values.ts';
import { batchDeleteItems } from '#lib/store/batch.ts';
import { deleteIf, deleteIfPresent, putIf, putIfAbsent, putNew, updateIf } from '#lib/store/conditional-writes.ts';
import { type Item, findItem } from '#lib/store/items.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/queries.ts';
import { setFields } from '#lib/store/set-fields.ts';
import type { Table } from '#lib/store/table.ts';
import { type Dependency, type Service, type ServiceChanges, nameKeyOf } from './service.ts';

/**
 * The service map of a workspace (docs/data-model.md 5.13) is one partition, `{W}#SERVICE`: services
 * (`SVC#<id>`), their name claims (`NAME#<nameKey>`) and dependencies (`DEP#<sourceId>.<targetId>`), so
 * the whole map is one Query however it is walked.
 */
const serviceMapPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'SERVICE');

const SERVICE = 'SVC#';
const NAME = 'NAME#';
const DEPENDENCY = 'DEP#';

const key = (workspaceId: string, sk: string) => ({ pk: serviceMapPartition(workspaceId), sk });

/** A stored service with the revision its next conditional update is checked against. */
export interface StoredService {
  service: Service;
  rev: number;
}

/** Who holds a name: the claim stays with its service until a rename or delete releases it. */
export interface NameClaim {
  serviceId: string;
  claimedAt: string;
}

const serviceFromItem = (item: Item, workspaceId: string): Service => {
  assertOfWorkspace(item, workspaceId, `service ${String(item.id)}`);
  return {
    ...storedFields<Service>()(item, ['id', 'name', 'createdAt', 'updatedAt']),
    ...textsOrNull(item, ['description', 'team', 'repository', 'escalationPolicyId']),
  };
};

const dependencyFromItem = (item: Item): Dependency => ({
  id: item.id as string,
  sourceId: item.sourceId as string,
  targetId: item.targetId as string,
  createdAt: item.createdAt as string,
});

const withoutNulls = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null));

/** `SET` the given values, `REMOVE` the optional ones set to null, and move `rev` on. */
const changeExpression = (changes: ServiceChanges, updatedAt: string, rev: number) => {
  const values = withoutNulls({ ...changes });
  const cleared = Object.keys(changes).filter((field) => changes[field as keyof ServiceChanges] === null);
  const set = setFields({
    ...values,
    ...(changes.name !== undefined && { nameKey: nameKeyOf(changes.name) }),
    updatedAt,
    rev: rev + 1,
  });
  const remove = cleared.map((field, index) => [`#r${index}`, field] as const);
  return {
    UpdateExpression: remove.length
      ? `${set.UpdateExpression} REMOVE ${remove.map(([alias]) => alias).join(', ')}`
      : set.UpdateExpression,
    ExpressionAttributeNames: { ...set.ExpressionAttributeNames, ...Object.fromEntries(remove), '#rev': 'rev' },
    ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ':read': rev },
    ConditionExpression: 'attribute_exists(pk) AND #rev = :read',
  };
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const serviceMapRepository = (table: Table, workspaceId: string) => {
  const claimKey = (nameKey: string) => key(workspaceId, `${NAME}${nameKey}`);
  const serviceKey = (serviceId: string) => key(workspaceId, `${SERVICE}${serviceId}`);
  const dependencyKey = (dependencyId: string) => key(workspaceId, `${DEPENDENCY}${dependencyId}`);
  const claimItem = (nameKey: string, claim: NameClaim) => ({
    ...claimKey(nameKey),
    type: 'SERVICE_NAME',
    workspaceId,
    ...claim,
  });

  /** False when the name is claimed already. */
  const claimName = (nameKey: string, claim: NameClaim): Promise<boolean> =>
    putIf(table, claimItem(nameKey, claim), { ConditionExpression: 'attribute_not_exists(pk)' });

  const findClaim = (nameKey: string): Promise<NameClaim | undefined> =>
    findItem(table, claimKey(nameKey), (item) => ({
      serviceId: item.serviceId as string,
      claimedAt: item.claimedAt as string,
    }));

  /** Replaces a stale claim, unless someone else replaced it first (false). */
  const takeOverClaim = (nameKey: string, staleServiceId: string, claim: NameClaim): Promise<boolean> =>
    putIf(table, claimItem(nameKey, claim), {
      ConditionExpression: 'serviceId = :stale',
      ExpressionAttributeValues: { ':stale': staleServiceId },
    });

  /** Deletes a claim only while it is the service's own. */
  const releaseClaim = async (nameKey: string, serviceId: string): Promise<void> => {
    await deleteIf(table, claimKey(nameKey), {
      ConditionExpression: 'serviceId = :id',
      ExpressionAttributeValues: { ':id': serviceId },
    });
  };

  const insertService = (service: Service): Promise<void> =>
    putNew(table, {
      ...serviceKey(service.id),
      type: 'SERVICE',
      workspaceId,
      ...withoutNulls({ ...service }),
      nameKey: nameKeyOf(service.name),
      rev: 1,
    });

  const findService = (serviceId: string): Promise<StoredService | undefined> =>
    findItem(table, serviceKey(serviceId), (item) => ({
      service: serviceFromItem(item, workspaceId),
      rev: item.rev as number,
    }));

  /** The service as written, or undefined if it is gone or was changed since it was read at `rev`. */
  const writeServiceChanges = async (
    serviceId: string,
    changes: ServiceChanges,
    updatedAt: string,
    rev: number,
  ): Promise<Service | undefined> => {
    const item = await updateIf(table, serviceKey(serviceId), changeExpression(changes, updatedAt, rev));
    return item && serviceFromItem(item, workspaceId);
  };

  const removeService = async (serviceId: string): Promise<Service | undefined> => {
    const item = await deleteIfPresent(table, serviceKey(serviceId));
    return item && serviceFromItem(item, workspaceId);
  };

  /** False when the very same edge exists already. */
  const insertDependency = (dependency: Dependency): Promise<boolean> =>
    putIfAbsent(table, { ...dependencyKey(dependency.id), type: 'DEPENDENCY', workspaceId, ...dependency });

  const removeDependency = async (dependencyId: string): Promise<Dependency | undefined> => {
    const item = await deleteIfPresent(table, dependencyKey(dependencyId));
    return item && dependencyFromItem(item);
  };

  const removeDependencies = (dependencyIds: readonly string[]): Promise<void> =>
    batchDeleteItems(table, dependencyIds.map(dependencyKey));

  /** The whole map in one Query: every service and every stored dependency. */
  const readMap = async (): Promise<{ services: Service[]; dependencies: Dependency[] }> => {
    const items = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': serviceMapPartition(workspaceId) },
    });
    const services: Service[] = [];
    const dependencies: Dependency[] = [];
    for (const item of items) {
      const sk = String(item.sk);
      if (sk.startsWith(SERVICE)) services.push(serviceFromItem(item, workspaceId));
      else if (sk.startsWith(DEPENDENCY)) dependencies.push(dependencyFromItem(item));
    }
    return { services, dependencies };
  };

  return {
    claimName,
    findClaim,
    takeOverClaim,
    releaseClaim,
    insertService,
    findService,
    writeServiceChanges,
    removeService,
    insertDependency,
    removeDependency,
    removeDependencies,
    readMap,
  };
};

export type ServiceMapRepository = ReturnType<typeof serviceMapRepository>;
