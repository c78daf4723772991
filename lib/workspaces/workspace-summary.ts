import { NotFoundError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { workspaceAndZone } from './workspace-timezone.ts';

/**
 * `GET /business/workspace`: what a page for people needs of the caller's workspace, its name (the console's
 * header and sign-in page) and the zone it says every time in (docs/console.md, "Times").
 */
export const readWorkspaceSummary = async (scope: Scope) => {
  const { workspace, timezone } = await workspaceAndZone(scope);
  if (!workspace) throw new NotFoundError('Workspace not found');
  return { id: workspace.id, businessName: workspace.businessName, timezone };
};
