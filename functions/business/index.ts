import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { business } from '#lib/routes/business.ts';

/** Services load on their route's first request, not at cold start (docs/performance.md, "Bundles and cold imports"). */
const invitations = onFirstUse(() => import('#lib/workspaces/invitations.ts'));
const membership = onFirstUse(() => import('#lib/workspaces/membership.ts'));
const ims = onFirstUse(() => import('#lib/workspaces/ims-config.ts'));
const sso = onFirstUse(() => import('#lib/workspaces/sso-settings.ts'));
const inviteAcceptanceModule = onFirstUse(() => import('#lib/workspaces/invite-acceptance.ts'));
const businessSetupModule = onFirstUse(() => import('#lib/workspaces/business-setup.ts'));
const membersModule = onFirstUse(() => import('#lib/workspaces/members.ts'));
const workspaceSummary = onFirstUse(() => import('#lib/workspaces/workspace-summary.ts'));

export const handler = createGroupHandler(business, {
  decodeInvite: async ({ accountScope, body }) =>
    ok(await (await invitations()).decodeInvite(accountScope, body.token), { message: 'Invitation is valid' }),
  acceptInvite: async ({ accountScope, body }) => {
    const { acceptInvite } = await inviteAcceptanceModule();
    return ok(await acceptInvite(accountScope, body), { message: 'Invitation accepted' });
  },
  setupBusiness: async ({ accountScope, body }) => {
    const { setupBusiness } = await businessSetupModule();
    const { created: isNew, ...result } = await setupBusiness(accountScope, body);
    return isNew ? created(result, { message: 'Workspace created' }) : ok(result, { message: 'Workspace updated' });
  },
  getWorkspace: async ({ scope }) => ok(await (await workspaceSummary()).readWorkspaceSummary(scope)),
  listMembers: async ({ scope }) => {
    const { listWorkspaceMembers } = await membersModule();
    return ok(await listWorkspaceMembers(scope));
  },
  changeMemberRole: async ({ scope, params, body }) =>
    ok(await (await membership()).changeMemberRole(scope, { userId: params.userId, role: body.role }), {
      message: 'Role changed',
    }),
  removeMember: async ({ scope, params }) =>
    ok(await (await membership()).removeMember(scope, params.userId), { message: 'Member removed' }),
  sendInvite: async ({ scope, body }) =>
    created(await (await invitations()).sendInvite(scope, body), { message: 'Invitation sent' }),
  setupIms: async ({ scope, body }) =>
    created(await (await ims()).setupIms(scope, body), { message: 'IMS configured' }),
  getImsConfig: async ({ scope }) => ok(await (await ims()).readImsConfig(scope)),
  updateImsConfig: async ({ scope, body }) =>
    ok(await (await ims()).changeImsConfig(scope, body), { message: 'IMS configuration updated' }),
  getSsoSettings: async ({ scope }) => ok(await (await sso()).readSsoSettings(scope)),
  updateSsoSettings: async ({ scope, body }) =>
    ok(await (await sso()).replaceSsoSettings(scope, body), { message: 'SSO settings saved' }),
});
