import { defineGroup } from '#lib/http/route.ts';
import {
  acceptInviteBody,
  changeMemberRoleBody,
  imsSetupBody,
  imsUpdateBody,
  inviteTokenBody,
  memberParams,
  sendInviteBody,
  setupBusinessBody,
  ssoSettingsBody,
} from '#lib/workspaces/schemas.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';
import { mail } from '#lib/ports/mail/mail-need.ts';

export const business = defineGroup({
  name: 'business',
  description: 'Workspace setup, members and invitations, and incident-management (IMS) configuration.',
  needs: [tableReadWrite, signingKeys, mail],
  routes: {
    decodeInvite: {
      method: 'POST',
      path: '/api/v1/business/decode-invite',
      summary: 'Decode an invitation token',
      auth: 'public',
      request: { body: inviteTokenBody },
    },
    acceptInvite: {
      method: 'POST',
      path: '/api/v1/business/accept-invite',
      summary:
        "Accept an invitation, creating an account, or joining the address's account with its Bearer token or password",
      auth: 'optionalBearer',
      limiter: 'login',
      request: { body: acceptInviteBody },
    },
    setupBusiness: {
      method: 'PUT',
      path: '/api/v1/business/setup',
      summary: 'Set up the workspace; an account without one creates it and becomes its ADMIN',
      auth: 'account',
      access: 'admin',
      request: { body: setupBusinessBody },
    },
    listMembers: {
      method: 'GET',
      path: '/api/v1/business/get_members',
      summary: 'List workspace members',
      auth: 'bearer',
      access: 'read',
    },
    changeMemberRole: {
      method: 'PATCH',
      path: '/api/v1/business/members/:userId',
      summary: "Change a member's role; the last ADMIN cannot be demoted (409)",
      auth: 'bearer',
      access: 'admin',
      request: { params: memberParams, body: changeMemberRoleBody },
    },
    removeMember: {
      method: 'DELETE',
      path: '/api/v1/business/members/:userId',
      summary: 'Remove a member, who keeps their account without a workspace; the last ADMIN cannot be removed (409)',
      auth: 'bearer',
      access: 'admin',
      request: { params: memberParams },
    },
    sendInvite: {
      method: 'POST',
      path: '/api/v1/business/send-invite',
      summary: 'Invite someone to the workspace',
      auth: 'bearer',
      access: 'admin',
      request: { body: sendInviteBody },
    },
    setupIms: {
      method: 'POST',
      path: '/api/v1/ims/setup',
      summary: 'Create the initial IMS configuration',
      auth: 'bearer',
      access: 'admin',
      request: { body: imsSetupBody },
    },
    getImsConfig: {
      method: 'GET',
      path: '/api/v1/ims/config',
      summary: 'Get the IMS configuration',
      auth: 'bearer',
      access: 'read',
    },
    updateImsConfig: {
      method: 'PUT',
      path: '/api/v1/ims/config',
      summary: 'Update the IMS configuration; only provided fields change',
      auth: 'bearer',
      access: 'admin',
      request: { body: imsUpdateBody },
    },
    getSsoSettings: {
      method: 'GET',
      path: '/api/v1/business/sso',
      summary: 'Get the workspace single sign-on settings (disabled until configured)',
      auth: 'bearer',
      access: 'read',
    },
    updateSsoSettings: {
      method: 'PUT',
      path: '/api/v1/business/sso',
      summary: 'Replace the workspace single sign-on settings; each e-mail domain belongs to one workspace',
      auth: 'bearer',
      access: 'admin',
      request: { body: ssoSettingsBody },
    },
  },
});
