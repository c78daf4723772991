import { created, ok } from '#lib/http/envelope.ts';
import { ForbiddenError } from '#lib/http/errors.ts';
import { createGroupHandler } from '#lib/http/group-handler.ts';
import type { Caller } from '#lib/http/route.ts';
import { business } from '#lib/routes/business.ts';
import { setupBusiness } from '#lib/workspaces/business-setup.ts';
import { changeImsConfig, readImsConfig, setupIms } from '#lib/workspaces/ims-config.ts';
import { acceptInvite, decodeInvite, sendInvite } from '#lib/workspaces/invitations.ts';
import { listWorkspaceMembers } from '#lib/workspaces/members.ts';
import { readSsoSettings, replaceSsoSettings } from '#lib/workspaces/sso-settings.ts';

type User = Extract<Caller, { kind: 'user' }>;

/** Every route here is Bearer-only; the middleware has already refused anyone else. */
const userOf = (caller: Caller): User => {
  if (caller.kind !== 'user') throw new ForbiddenError('This route takes a Bearer token');
  return caller;
};

/** The caller's own workspace: the only one these routes can reach. */
const workspaceOf = (caller: Caller): { userId: string; workspaceId: string } => {
  const { userId, workspaceId } = userOf(caller);
  if (!workspaceId) throw new ForbiddenError('Set up or join a workspace first');
  return { userId, workspaceId };
};

export const handler = createGroupHandler(business, {
  decodeInvite: async ({ body, runtime }) => ok(await decodeInvite(runtime, body.token), { message: 'Invitation is valid' }),
  acceptInvite: async ({ body, runtime }) => ok(await acceptInvite(runtime, body), { message: 'Invitation accepted' }),
  setupBusiness: async ({ body, caller, runtime }) => {
    const { created: isNew, ...result } = await setupBusiness(runtime, userOf(caller).userId, body);
    return isNew ? created(result, { message: 'Workspace created' }) : ok(result, { message: 'Workspace updated' });
  },
  listMembers: async ({ caller, runtime }) => ok(await listWorkspaceMembers(runtime.table, workspaceOf(caller).workspaceId)),
  sendInvite: async ({ body, caller, runtime }) => {
    const { userId, workspaceId } = workspaceOf(caller);
    return created(await sendInvite(runtime, workspaceId, userId, body), { message: 'Invitation sent' });
  },
  setupIms: async ({ body, caller, runtime }) =>
    created(await setupIms(runtime, workspaceOf(caller).workspaceId, body), { message: 'IMS configured' }),
  getImsConfig: async ({ caller, runtime }) => ok(await readImsConfig(runtime, workspaceOf(caller).workspaceId)),
  updateImsConfig: async ({ body, caller, runtime }) =>
    ok(await changeImsConfig(runtime, workspaceOf(caller).workspaceId, body), { message: 'IMS configuration updated' }),
  getSsoSettings: async ({ caller, runtime }) => ok(await readSsoSettings(runtime, workspaceOf(caller).workspaceId)),
  updateSsoSettings: async ({ body, caller, runtime }) =>
    ok(await replaceSsoSettings(runtime, workspaceOf(caller).workspaceId, body), { message: 'SSO settings saved' }),
});
