import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { maintenanceWindows } from '#lib/routes/maintenance-windows.ts';

/** The service loads on the first request, not at cold start (docs/performance.md, "Bundles and cold imports"). */
const service = onFirstUse(() => import('#lib/maintenance/maintenance-window-service.ts'));

export const handler = createGroupHandler(maintenanceWindows, {
  createWindow: async ({ scope, body }) =>
    created(await (await service()).createWindow(scope, body), { message: 'Maintenance window created' }),
  listWindows: async ({ scope }) => ok({ maintenanceWindows: await (await service()).listWindows(scope) }),
  getWindow: async ({ scope, params }) => ok(await (await service()).getWindow(scope, params.id)),
  replaceWindow: async ({ scope, params, body }) =>
    ok(await (await service()).replaceWindow(scope, { id: params.id, input: body }), {
      message: 'Maintenance window replaced',
    }),
  deleteWindow: async ({ scope, params }) => {
    await (await service()).deleteWindow(scope, params.id);
    return ok({ id: params.id }, { message: 'Maintenance window deleted' });
  },
});
