import { defineGroup } from '#lib/http/route.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';

export const slaPolicies = defineGroup({
  name: 'sla-policies',
  description: 'SLA policies: response and resolution targets per priority and team, with breach status.',
  needs: [tableReadWrite, signingKeys],
  routes: {
    createPolicy: {
      method: 'POST',
      path: '/api/v1/sla-policies',
      summary: 'Create an SLA policy, active immediately',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
    },
    listPolicies: {
      method: 'GET',
      path: '/api/v1/sla-policies',
      summary: 'List SLA policies with their breach status',
      auth: 'bearerOrApiKey',
      scope: 'analytics:read',
      access: 'read',
    },
    getPolicy: {
      method: 'GET',
      path: '/api/v1/sla-policies/:id',
      summary: 'Get an SLA policy',
      auth: 'bearerOrApiKey',
      scope: 'analytics:read',
      access: 'read',
    },
    replacePolicy: {
      method: 'PUT',
      path: '/api/v1/sla-policies/:id',
      summary: 'Replace an SLA policy; omitted fields revert to defaults',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
    },
    deletePolicy: {
      method: 'DELETE',
      path: '/api/v1/sla-policies/:id',
      summary: 'Delete an SLA policy; evaluated incidents keep their breach status',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
    },
  },
});
