import type { Scope } from '#lib/identity/scope.ts';
import { imsConfigRepository } from './ims-config-repository.ts';
import type { Workspace } from './workspace.ts';
import { workspaceRepository } from './workspace-repository.ts';

/**
 * The workspace and the zone its times are in: the IMS configuration's, else the one given when the business
 * registered (spec: "UTC unless the account has a default timezone"), else UTC.
 */
export const workspaceAndZone = async ({
  ports: { table },
  workspaceId,
}: Scope): Promise<{ workspace: Workspace | undefined; timezone: string }> => {
  const [config, workspace] = await Promise.all([
    imsConfigRepository(table, workspaceId).getImsConfig(),
    workspaceRepository(table, workspaceId).getWorkspace(),
  ]);
  return { workspace, timezone: config?.timezone ?? workspace?.timezone ?? 'UTC' };
};

export const workspaceTimezone = async (scope: Scope): Promise<string> => (await workspaceAndZone(scope)).timezone;
