import type { Scope } from '#lib/identity/scope.ts';
import { imsConfigRepository } from './ims-config-repository.ts';
import { workspaceRepository } from './workspace-repository.ts';

/**
 * The zone the workspace's times are in: the IMS configuration's, else the one given when the business
 * registered (spec: "UTC unless the account has a default timezone"), else UTC.
 */
export const workspaceTimezone = async ({ ports: { table }, workspaceId }: Scope): Promise<string> => {
  const [config, workspace] = await Promise.all([
    imsConfigRepository(table, workspaceId).getImsConfig(),
    workspaceRepository(table, workspaceId).getWorkspace(),
  ]);
  return config?.timezone ?? workspace?.timezone ?? 'UTC';
};
