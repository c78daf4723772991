import { createRuleBody, ruleIdParams, updateRuleBody } from '#lib/correlation/schemas.ts';
import * as z from 'zod/mini';
import { deletedRuleView, ruleView } from '#lib/correlation/responses.ts';
import { defineGroup } from '#lib/http/route.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';

/**
 * Rules shape incident creation for the whole workspace, so changing them is workspace administration
 * (`admin`: ADMIN only); an API key needs `incidents:write`.
 */
export const correlationRules = defineGroup({
  name: 'correlation-rules',
  description:
    'Correlation rules: which signals open incidents, grouped how, within which window and at which priority.',
  needs: [tableReadWrite, signingKeys],
  routes: {
    listRules: {
      method: 'GET',
      path: '/api/v1/correlation-rules',
      summary: 'List the rules in effect, in the order they are tried; built-in defaults are marked isDefault',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      response: { status: 200, data: z.array(ruleView) },
    },
    getRule: {
      method: 'GET',
      path: '/api/v1/correlation-rules/:id',
      summary: 'Get one correlation rule',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      request: { params: ruleIdParams },
      response: { status: 200, data: ruleView },
    },
    createRule: {
      method: 'POST',
      path: '/api/v1/correlation-rules',
      summary: "Create a correlation rule (the first write stores the defaults as the workspace's own rules)",
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'admin',
      request: { body: createRuleBody },
      response: { status: 201, data: ruleView },
    },
    updateRule: {
      method: 'PUT',
      path: '/api/v1/correlation-rules/:id',
      summary: 'Update a correlation rule; only provided fields change',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'admin',
      request: { params: ruleIdParams, body: updateRuleBody },
      response: { status: 200, data: ruleView },
    },
    deleteRule: {
      method: 'DELETE',
      path: '/api/v1/correlation-rules/:id',
      summary: 'Delete a correlation rule, a default one included',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'admin',
      request: { params: ruleIdParams },
      response: { status: 200, data: deletedRuleView },
    },
  },
});
