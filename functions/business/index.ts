import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { business } from '#lib/routes/business.ts';
import { setupBusiness } from '#lib/workspaces/business-setup.ts';
import { changeImsConfig, readImsConfig, setupIms } from '#lib/workspaces/ims-config.ts';
import { acceptInvite } from '#lib/workspaces/invite-acceptance.ts';
import { decodeInvite, sendInvite } from '#lib/workspaces/invitations.ts';
import { listWorkspaceMembers } from '#lib/workspaces/members.ts';
import { changeMemberRole, removeMember } from '#lib/workspaces/membership.ts';
import { readSsoSettings, replaceSsoSettings } from '#lib/workspaces/sso-settings.ts';

export const handler = createGroupHandler(business, {
  decodeInvite: async ({ accountScope, body }) =>
    ok(await decodeInvite(accountScope, body.token), { message: 'Invitation is valid' }),
  acceptInvite: async ({ accountScope, body }) =>
    ok(await acceptInvite(accountScope, body), { message: 'Invitation accepted' }),
  setupBusiness: async ({ accountScope, body }) => {
    const { created: isNew, ...result } = await setupBusiness(accountScope, body);
    return isNew ? created(result, { message: 'Workspace created' }) : ok(result, { message: 'Workspace updated' });
  },
  listMembers: async ({ scope }) => ok(await listWorkspaceMembers(scope)),
  changeMemberRole: async ({ scope, params, body }) =>
    ok(await changeMemberRole(scope, { userId: params.userId, role: body.role }), { message: 'Role changed' }),
  removeMember: async ({ scope, params }) =>
    ok(await removeMember(scope, params.userId), { message: 'Member removed' }),
  sendInvite: async ({ scope, body }) => created(await sendInvite(scope, body), { message: 'Invitation sent' }),
  setupIms: async ({ scope, body }) => created(await setupIms(scope, body), { message: 'IMS configured' }),
  getImsConfig: async ({ scope }) => ok(await readImsConfig(scope)),
  updateImsConfig: async ({ scope, body }) =>
    ok(await changeImsConfig(scope, body), { message: 'IMS configuration updated' }),
  getSsoSettings: async ({ scope }) => ok(await readSsoSettings(scope)),
  updateSsoSettings: async ({ scope, body }) =>
    ok(await replaceSsoSettings(scope, body), { message: 'SSO settings saved' }),
});
