import { created, ok } from '#lib/http/envelope.ts';
import { ForbiddenError } from '#lib/contract/errors.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import type { Caller } from '#lib/identity/caller.ts';
import { business } from '#lib/routes/business.ts';
import { setupBusiness } from '#lib/workspaces/business-setup.ts';
import { changeImsConfig, readImsConfig, setupIms } from '#lib/workspaces/ims-config.ts';
import { acceptInvite } from '#lib/workspaces/invite-acceptance.ts';
import { decodeInvite, sendInvite } from '#lib/workspaces/invitations.ts';
import { listWorkspaceMembers } from '#lib/workspaces/members.ts';
import { changeMemberRole, removeMember } from '#lib/workspaces/membership.ts';
import { readSsoSettings, replaceSsoSettings } from '#lib/workspaces/sso-settings.ts';

type User = Extract<Caller, { kind: 'user' }>;

/** Every route here is Bearer-only; the middleware has already refused anyone else. */
const userOf = (caller: Caller): User => {
  if (caller.kind !== 'user') throw new ForbiddenError('This route takes a Bearer token');
  return caller;
};

export const handler = createGroupHandler(business, {
  decodeInvite: async ({ body, runtime }) => ok(await decodeInvite(runtime, body.token), { message: 'Invitation is valid' }),
  acceptInvite: async ({ body, caller, runtime }) =>
    ok(await acceptInvite(runtime, body, caller), { message: 'Invitation accepted' }),
  setupBusiness: async ({ body, caller, runtime }) => {
    const { created: isNew, ...result } = await setupBusiness(runtime, userOf(caller).userId, body);
    return isNew ? created(result, { message: 'Workspace created' }) : ok(result, { message: 'Workspace updated' });
  },
  listMembers: async ({ workspaceId, runtime }) => ok(await listWorkspaceMembers(runtime.table, workspaceId)),
  changeMemberRole: async ({ params, body, workspaceId, runtime }) =>
    ok(await changeMemberRole(runtime, workspaceId, params.userId, body.role), { message: 'Role changed' }),
  removeMember: async ({ params, workspaceId, runtime }) =>
    ok(await removeMember(runtime, workspaceId, params.userId), { message: 'Member removed' }),
  sendInvite: async ({ body, caller, workspaceId, runtime }) =>
    created(await sendInvite(runtime, workspaceId, userOf(caller).userId, body), { message: 'Invitation sent' }),
  setupIms: async ({ body, workspaceId, runtime }) =>
    created(await setupIms(runtime, workspaceId, body), { message: 'IMS configured' }),
  getImsConfig: async ({ workspaceId, runtime }) => ok(await readImsConfig(runtime, workspaceId)),
  updateImsConfig: async ({ body, workspaceId, runtime }) =>
    ok(await changeImsConfig(runtime, workspaceId, body), { message: 'IMS configuration updated' }),
  getSsoSettings: async ({ workspaceId, runtime }) => ok(await readSsoSettings(runtime, workspaceId)),
  updateSsoSettings: async ({ body, workspaceId, runtime }) =>
    ok(await replaceSsoSettings(runtime, workspaceId, body), { message: 'SSO settings saved' }),
});
