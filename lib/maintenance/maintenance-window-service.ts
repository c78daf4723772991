import { NotFoundError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { isActiveAt, isWindowId, type MaintenanceWindow } from './maintenance-window.ts';

export { windowCovering } from './maintenance-window.ts';
import { maintenanceWindowRepository } from './maintenance-window-repository.ts';
import type { WindowInput, WindowView } from './schemas.ts';

const notFound = (id: string): NotFoundError =>
  new NotFoundError('Maintenance window not found', [`id: no maintenance window ${id} in this workspace`]);

const viewOf = (scope: Scope, window: MaintenanceWindow): WindowView => ({
  ...window,
  active: isActiveAt(window, scope.ports.clock.now()),
});

export const createWindow = async (scope: Scope, input: WindowInput): Promise<WindowView> => {
  const { ports, workspaceId, actor } = scope;
  const now = ports.clock.now().toISOString();
  const window: MaintenanceWindow = {
    id: ports.ids.sortable(),
    ...input,
    createdBy: actor,
    createdAt: now,
    updatedAt: now,
  };
  await maintenanceWindowRepository(ports.table, workspaceId).insertWindow(window);
  return viewOf(scope, window);
};

/** Newest first: ids are ULIDs. */
export const listWindows = async (scope: Scope): Promise<WindowView[]> =>
  (await maintenanceWindowRepository(scope.ports.table, scope.workspaceId).queryWindows())
    .sort((a, b) => b.id.localeCompare(a.id))
    .map((window) => viewOf(scope, window));

export const getWindow = async (scope: Scope, id: string): Promise<WindowView> => {
  const window = isWindowId(id)
    ? await maintenanceWindowRepository(scope.ports.table, scope.workspaceId).findWindow(id)
    : undefined;
  if (!window) throw notFound(id);
  return viewOf(scope, window);
};

/** Full replace; ending a window early is this with `endsAt` set to now. */
export const replaceWindow = async (
  scope: Scope,
  { id, input }: { id: string; input: WindowInput },
): Promise<WindowView> => {
  const { ports, workspaceId } = scope;
  const window = isWindowId(id)
    ? await maintenanceWindowRepository(ports.table, workspaceId).replaceWindow(
        id,
        input,
        ports.clock.now().toISOString(),
      )
    : undefined;
  if (!window) throw notFound(id);
  return viewOf(scope, window);
};

export const deleteWindow = async ({ ports, workspaceId }: Scope, id: string): Promise<void> => {
  if (!isWindowId(id) || !(await maintenanceWindowRepository(ports.table, workspaceId).removeWindow(id))) {
    throw notFound(id);
  }
};

/** The windows open at `instant`: one Query, for a sweep to ask of many incidents. */
export const openWindows = async ({ ports, workspaceId }: Scope, instant: Date): Promise<MaintenanceWindow[]> =>
  (await maintenanceWindowRepository(ports.table, workspaceId).queryWindows(instant.toISOString())).filter((window) =>
    isActiveAt(window, instant),
  );

/**
 * Every window the workspace keeps (an ended one leaves with its TTL): one Query, which a batch of signals
 * shares to ask of each whether a window holds it (`windowCovering`).
 */
export const workspaceWindows = async ({ ports, workspaceId }: Scope): Promise<MaintenanceWindow[]> =>
  maintenanceWindowRepository(ports.table, workspaceId).queryWindows();
