import { defineGroup } from '#lib/http/route.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';
import { mail } from '#lib/ports/mail/mail-need.ts';
import {
  deletedPolicyResponse,
  policiesResponse,
  policyBody,
  policyIdParams,
  policyResponse,
  policyWithComplianceResponse,
} from '#lib/sla/schemas.ts';

export const slaPolicies = defineGroup({
  name: 'sla-policies',
  description: 'SLA policies: response and resolution targets per priority and team, with breach status.',
  needs: [tableReadWrite, signingKeys, mail],
  routes: {
    createPolicy: {
      method: 'POST',
      path: '/api/v1/sla-policies',
      summary: 'Create an SLA policy, active immediately',
      description:
        'Governs the incidents of its priority and team created from now on, while the IMS configuration has ' +
        '`slaEnabled`. An incident team is its `serviceArea`; `applicableTeam` `*` governs every team.',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { body: policyBody },
      response: { status: 201, data: policyResponse },
    },
    listPolicies: {
      method: 'GET',
      path: '/api/v1/sla-policies',
      summary: 'List SLA policies with their breach status',
      auth: 'bearerOrApiKey',
      scope: 'analytics:read',
      access: 'read',
      response: { status: 200, data: policiesResponse },
    },
    getPolicy: {
      method: 'GET',
      path: '/api/v1/sla-policies/:id',
      summary: 'Get an SLA policy with its compliance against thresholds and uptime target',
      auth: 'bearerOrApiKey',
      scope: 'analytics:read',
      access: 'read',
      request: { params: policyIdParams },
      response: { status: 200, data: policyWithComplianceResponse },
    },
    replacePolicy: {
      method: 'PUT',
      path: '/api/v1/sla-policies/:id',
      summary: 'Replace an SLA policy; every field is required, as on create',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { params: policyIdParams, body: policyBody },
      response: { status: 200, data: policyResponse },
    },
    deletePolicy: {
      method: 'DELETE',
      path: '/api/v1/sla-policies/:id',
      summary: 'Delete an SLA policy; evaluated incidents keep their breach status',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { params: policyIdParams },
      response: { status: 200, data: deletedPolicyResponse },
    },
  },
});
