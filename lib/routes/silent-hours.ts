import { defineGroup } from '#lib/http/route.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';

export const silentHours = defineGroup({
  name: 'silent-hours',
  description: 'Silent-hours rules: recurring windows per team.',
  needs: [tableReadWrite, signingKeys],
  routes: {
    listRules: {
      method: 'GET',
      path: '/api/v1/silent-hours',
      summary: 'List silent-hours rules',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
    },
    replaceRules: {
      method: 'POST',
      path: '/api/v1/silent-hours',
      summary: 'Replace the complete set of silent-hours rules atomically',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
    },
    replaceRule: {
      method: 'PUT',
      path: '/api/v1/silent-hours/:id',
      summary: 'Replace one silent-hours rule',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
    },
    deleteRule: {
      method: 'DELETE',
      path: '/api/v1/silent-hours/:id',
      summary: 'Delete one silent-hours rule',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
    },
  },
});
