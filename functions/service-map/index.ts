import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { serviceMap } from '#lib/routes/service-map.ts';
import { createDependency, deleteDependency } from '#lib/service-map/dependencies.ts';
import { createService, deleteService, getService, listServices, updateService } from '#lib/service-map/services.ts';
import { getDownstreamImpact, getTopology } from '#lib/service-map/topology.ts';

export const handler = createGroupHandler(serviceMap, {
  getTopology: async ({ scope }) => ok(await getTopology(scope)),
  listServices: async ({ scope }) => ok({ services: await listServices(scope) }),
  getService: async ({ scope, params }) => ok(await getService(scope, params.id)),
  getDownstreamImpact: async ({ scope, params, query }) =>
    ok({ impactedServices: await getDownstreamImpact(scope, { id: params.id, depth: query.depth }) }),
  createService: async ({ scope, body }) => created(await createService(scope, body), { message: 'Service created' }),
  createDependency: async ({ scope, body }) =>
    created(await createDependency(scope, body), { message: 'Dependency created' }),
  updateService: async ({ scope, params, body }) =>
    ok(await updateService(scope, { id: params.id, changes: body }), { message: 'Service updated' }),
  deleteService: async ({ scope, params }) => {
    await deleteService(scope, params.id);
    return ok({ id: params.id }, { message: 'Service deleted' });
  },
  deleteDependency: async ({ scope, params }) => {
    await deleteDependency(scope, params.depId);
    return ok({ id: params.depId }, { message: 'Dependency deleted' });
  },
});
