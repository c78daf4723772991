import { BadRequestError, ConflictError, NotFoundError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { type Dependency, dependencyIdOf, isDependencyId, isServiceId } from './service.ts';
import { serviceMapRepository } from './service-map-repository.ts';
import type { CreateDependencyInput } from './schemas.ts';

/**
 * `sourceId` comes to depend on `targetId`. Both must be services of the workspace (400 naming each
 * that is not), a service cannot depend on itself (400), and the same edge twice is a 409.
 */
export const createDependency = async (
  { ports: { table, clock }, workspaceId }: Scope,
  { sourceId, targetId }: CreateDependencyInput,
): Promise<Dependency> => {
  if (sourceId === targetId)
    throw new BadRequestError('Invalid dependency', ['targetId: a service cannot depend on itself']);
  const map = serviceMapRepository(table, workspaceId);
  const ends = { sourceId, targetId };
  const missing = await Promise.all(
    Object.entries(ends).map(async ([field, id]) =>
      isServiceId(id) && (await map.findService(id)) ? undefined : `${field}: no service ${id} in this workspace`,
    ),
  );
  const errors = missing.filter((error) => error !== undefined);
  if (errors.length > 0) throw new BadRequestError('Invalid dependency', errors);
  const dependency: Dependency = {
    id: dependencyIdOf(sourceId, targetId),
    sourceId,
    targetId,
    createdAt: clock.now().toISOString(),
  };
  if (!(await map.insertDependency(dependency))) {
    throw new ConflictError('This dependency exists', [`targetId: ${sourceId} already depends on ${targetId}`]);
  }
  return dependency;
};

export const deleteDependency = async (
  { ports: { table }, workspaceId }: Scope,
  dependencyId: string,
): Promise<Dependency> => {
  const removed = isDependencyId(dependencyId)
    ? await serviceMapRepository(table, workspaceId).removeDependency(dependencyId)
    : undefined;
  if (!removed) throw new NotFoundError('Dependency not found');
  return removed;
};
