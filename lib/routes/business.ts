import { defineGroup } from '#lib/http/route.ts';

export const business = defineGroup({
  name: 'business',
  description: 'Workspace setup, members and invitations, and incident-management (IMS) configuration.',
  routes: {
    decodeInvite: {
      method: 'POST',
      path: '/api/v1/business/decode-invite',
      summary: 'Decode an invitation token',
      auth: 'public',
    },
    acceptInvite: {
      method: 'POST',
      path: '/api/v1/business/accept-invite',
      summary: 'Accept an invitation, linking or creating an account',
      auth: 'public',
    },
    setupBusiness: {
      method: 'PUT',
      path: '/api/v1/business/setup',
      summary: 'Set up the workspace; an account without one creates it and becomes its ADMIN',
      auth: 'account',
      access: 'admin',
    },
    listMembers: {
      method: 'GET',
      path: '/api/v1/business/get_members',
      summary: 'List workspace members',
      auth: 'bearer',
      access: 'read',
    },
    sendInvite: {
      method: 'POST',
      path: '/api/v1/business/send-invite',
      summary: 'Invite someone to the workspace',
      auth: 'bearer',
      access: 'admin',
    },
    setupIms: {
      method: 'POST',
      path: '/api/v1/ims/setup',
      summary: 'Create the initial IMS configuration',
      auth: 'bearer',
      access: 'admin',
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
    },
  },
});
