import { BadRequestError, ConflictError, NotFoundError } from '#lib/contract/errors.ts';
import { escalationPolicyRepository } from '#lib/escalation-policies/escalation-policy-repository.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { claimServiceName } from './name-claims.ts';
import { type Service, type ServiceChanges, isServiceId, nameKeyOf } from './service.ts';
import { serviceMapRepository } from './service-map-repository.ts';
import type { CreateServiceInput, UpdateServiceInput } from './schemas.ts';

/** A PATCH that loses a race with another change of the same service reads it again this many times. */
const UPDATE_ATTEMPTS = 3;

const notFound = (): NotFoundError => new NotFoundError('Service not found');

/** A policy named must be one of the workspace's: a 400 naming the field otherwise. */
const checkPolicy = async ({ ports: { table }, workspaceId }: Scope, policyId: string | null | undefined) => {
  if (!policyId) return;
  if (!(await escalationPolicyRepository(table, workspaceId).getPolicy(policyId))) {
    throw new BadRequestError('Unknown escalation policy', [
      `escalationPolicyId: no escalation policy ${policyId} in this workspace`,
    ]);
  }
};

/** The name is claimed first, so two creates of one name cannot both succeed (409 for the second). */
export const createService = async (scope: Scope, input: CreateServiceInput): Promise<Service> => {
  const {
    ports: { table, clock, ids },
    workspaceId,
  } = scope;
  await checkPolicy(scope, input.escalationPolicyId);
  const map = serviceMapRepository(table, workspaceId);
  const now = clock.now().toISOString();
  const service: Service = {
    id: ids.sortable(),
    name: input.name,
    description: input.description ?? null,
    team: input.team ?? null,
    repository: input.repository ?? null,
    escalationPolicyId: input.escalationPolicyId ?? null,
    createdAt: now,
    updatedAt: now,
  };
  await claimServiceName(map, clock, service.name, service.id);
  await map.insertService(service);
  return service;
};

export const getService = async ({ ports: { table }, workspaceId }: Scope, serviceId: string): Promise<Service> => {
  const found = isServiceId(serviceId)
    ? await serviceMapRepository(table, workspaceId).findService(serviceId)
    : undefined;
  if (!found) throw notFound();
  return found.service;
};

/** Every service, by name: a workspace has tens of them, so the list is not paged. */
export const listServices = async ({ ports: { table }, workspaceId }: Scope): Promise<Service[]> => {
  const { services } = await serviceMapRepository(table, workspaceId).readMap();
  return services.sort((a, b) => a.name.localeCompare(b.name));
};

/** Only the fields that differ are written; a body that changes nothing writes nothing. */
const changesTo = (service: Service, input: UpdateServiceInput): ServiceChanges =>
  Object.fromEntries(
    Object.entries(input).filter(
      ([field, value]) => value !== undefined && value !== service[field as keyof ServiceChanges],
    ),
  );

/**
 * A rename claims the new name before the service changes and releases the old one after, so at every
 * moment the service holds at least one of them; the `rev` condition keeps a concurrent PATCH from
 * being overwritten with what this one read.
 */
export const updateService = async (
  scope: Scope,
  { id: serviceId, changes: input }: { id: string; changes: UpdateServiceInput },
): Promise<Service> => {
  const {
    ports: { table, clock },
    workspaceId,
  } = scope;
  if (!isServiceId(serviceId)) throw notFound();
  await checkPolicy(scope, input.escalationPolicyId);
  const map = serviceMapRepository(table, workspaceId);
  for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt += 1) {
    const found = await map.findService(serviceId);
    if (!found) throw notFound();
    const changes = changesTo(found.service, input);
    if (Object.keys(changes).length === 0) return found.service;
    const oldKey = nameKeyOf(found.service.name);
    const renamed = changes.name !== undefined && nameKeyOf(changes.name) !== oldKey;
    if (renamed && changes.name) await claimServiceName(map, clock, changes.name, serviceId);
    const updated = await map.writeServiceChanges(serviceId, changes, clock.now().toISOString(), found.rev);
    if (updated) {
      if (renamed) await map.releaseClaim(oldKey, serviceId);
      return updated;
    }
    if (renamed && changes.name) await map.releaseClaim(nameKeyOf(changes.name), serviceId);
  }
  throw new ConflictError('The service is being changed by another request; try again');
};

/**
 * Edges first, then the name, then the service itself: a crash part-way leaves the service in place,
 * and repeating the delete removes what is left.
 */
export const deleteService = async ({ ports: { table }, workspaceId }: Scope, serviceId: string): Promise<void> => {
  if (!isServiceId(serviceId)) throw notFound();
  const map = serviceMapRepository(table, workspaceId);
  const found = await map.findService(serviceId);
  if (!found) throw notFound();
  const { dependencies } = await map.readMap();
  const edges = dependencies.filter((edge) => edge.sourceId === serviceId || edge.targetId === serviceId);
  await map.removeDependencies(edges.map((edge) => edge.id));
  await map.releaseClaim(nameKeyOf(found.service.name), serviceId);
  if (!(await map.removeService(serviceId))) throw notFound();
};
