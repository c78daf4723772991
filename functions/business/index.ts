import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { HTML_TYPE } from '#lib/http/content-types.ts';
import type { RouteResult } from '#lib/http/route.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { binary, created, ok } from '#lib/http/envelope.ts';
import { business } from '#lib/routes/business.ts';

/** Services load on their route's first request, not at cold start (docs/performance.md, "Bundles and cold imports"). */
/** The link base of calendar and confirmation links loads with the first route that hands one out. */
const requestBaseUrl = onFirstUse(() => import('#lib/app/request-base-url.ts'));
const invitations = onFirstUse(() => import('#lib/workspaces/invitations.ts'));
const membership = onFirstUse(() => import('#lib/workspaces/membership.ts'));
const ims = onFirstUse(() => import('#lib/workspaces/ims-config.ts'));
const sso = onFirstUse(() => import('#lib/workspaces/sso-settings.ts'));
const inviteAcceptanceModule = onFirstUse(() => import('#lib/schedules/invited-turns.ts'));
const businessSetupModule = onFirstUse(() => import('#lib/workspaces/business-setup.ts'));
const membersModule = onFirstUse(() => import('#lib/workspaces/members.ts'));
const outsideAddresses = onFirstUse(() => import('#lib/workspaces/outside-address-confirmation.ts'));

/** A confirmation page with its status (a refused link is a 4xx page a person reads), never cached. */
const htmlPage = ({ status, html }: { status: number; html: string }): RouteResult => ({
  ...binary(HTML_TYPE, Buffer.from(html, 'utf8'), { 'cache-control': 'no-store' }),
  status,
});
const workspaceSummary = onFirstUse(() => import('#lib/workspaces/workspace-summary.ts'));

export const handler = createGroupHandler(business, {
  decodeInvite: async ({ accountScope, body }) =>
    ok(await (await invitations()).decodeInvite(accountScope, body.token), { message: 'Invitation is valid' }),
  acceptInvite: async ({ accountScope, body }) => {
    const { acceptInviteTakingTurns } = await inviteAcceptanceModule();
    return ok(await acceptInviteTakingTurns(accountScope, body), { message: 'Invitation accepted' });
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
  setupIms: async (request) =>
    created(await (await ims()).setupIms(request.scope, request.body, (await requestBaseUrl()).baseUrlOf(request)), {
      message: 'IMS configured',
    }),
  getImsConfig: async ({ scope }) => ok(await (await ims()).readImsConfig(scope)),
  updateImsConfig: async (request) =>
    ok(await (await ims()).changeImsConfig(request.scope, request.body, (await requestBaseUrl()).baseUrlOf(request)), {
      message: 'IMS configuration updated',
    }),
  getSsoSettings: async ({ scope }) => ok(await (await sso()).readSsoSettings(scope)),
  updateSsoSettings: async ({ scope, body }) =>
    ok(await (await sso()).replaceSsoSettings(scope, body), { message: 'SSO settings saved' }),
  listOutsideAddresses: async ({ scope }) => ok(await (await outsideAddresses()).listOutsideAddresses(scope)),
  showAddressConfirmation: async ({ accountScope, params }) =>
    htmlPage(await (await outsideAddresses()).confirmationPage(accountScope, params.token)),
  confirmAddress: async ({ accountScope, params }) =>
    htmlPage(await (await outsideAddresses()).confirmAddress(accountScope, params.token)),
});
