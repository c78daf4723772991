import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { serviceMap } from '#lib/routes/service-map.ts';

/** Services load on their route's first request, not at cold start (docs/performance.md, "Bundles and cold imports"). */
const services = onFirstUse(() => import('#lib/service-map/services.ts'));
const dependencies = onFirstUse(() => import('#lib/service-map/dependencies.ts'));
const topology = onFirstUse(() => import('#lib/service-map/topology.ts'));

export const handler = createGroupHandler(serviceMap, {
  getTopology: async ({ scope }) => ok(await (await topology()).getTopology(scope)),
  listServices: async ({ scope }) => ok({ services: await (await services()).listServices(scope) }),
  getService: async ({ scope, params }) => ok(await (await services()).getService(scope, params.id)),
  getDownstreamImpact: async ({ scope, params, query }) =>
    ok({
      impactedServices: await (await topology()).getDownstreamImpact(scope, { id: params.id, depth: query.depth }),
    }),
  createService: async ({ scope, body }) =>
    created(await (await services()).createService(scope, body), { message: 'Service created' }),
  createDependency: async ({ scope, body }) =>
    created(await (await dependencies()).createDependency(scope, body), { message: 'Dependency created' }),
  updateService: async ({ scope, params, body }) =>
    ok(await (await services()).updateService(scope, { id: params.id, changes: body }), {
      message: 'Service updated',
    }),
  deleteService: async ({ scope, params }) => {
    await (await services()).deleteService(scope, params.id);
    return ok({ id: params.id }, { message: 'Service deleted' });
  },
  deleteDependency: async ({ scope, params }) => {
    await (await dependencies()).deleteDependency(scope, params.depId);
    return ok({ id: params.depId }, { message: 'Dependency deleted' });
  },
});
