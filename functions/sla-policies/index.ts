import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { slaPolicies } from '#lib/routes/sla-policies.ts';

/** The service loads on the first request, not at cold start (docs/performance.md, "Bundles and cold imports"). */
/** The link base of calendar and confirmation links loads with the first route that hands one out. */
const requestBaseUrl = onFirstUse(() => import('#lib/app/request-base-url.ts'));
const service = onFirstUse(() => import('#lib/sla/sla-policy-service.ts'));

export const handler = createGroupHandler(slaPolicies, {
  createPolicy: async (request) =>
    created(
      await (await service()).createPolicy(request.scope, request.body, (await requestBaseUrl()).baseUrlOf(request)),
      {
        message: 'SLA policy created',
      },
    ),
  listPolicies: async ({ scope }) => ok({ policies: await (await service()).listPolicies(scope) }),
  getPolicy: async ({ scope, params }) => ok(await (await service()).getPolicy(scope, params.id)),
  replacePolicy: async (request) =>
    ok(
      await (await service()).replacePolicy(request.scope, {
        id: request.params.id,
        fields: request.body,
        baseUrl: (await requestBaseUrl()).baseUrlOf(request),
      }),
      {
        message: 'SLA policy replaced',
      },
    ),
  deletePolicy: async ({ scope, params }) => {
    await (await service()).deletePolicy(scope, params.id);
    return ok({ id: params.id }, { message: 'SLA policy deleted' });
  },
});
