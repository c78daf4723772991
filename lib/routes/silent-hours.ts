import { defineGroup } from '#lib/http/route.ts';
import {
  deletedRuleResponse,
  replaceRulesBody,
  ruleBody,
  ruleIdParams,
  ruleResponse,
  rulesResponse,
} from '#lib/silent-hours/schemas.ts';
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
      response: { status: 200, data: rulesResponse },
    },
    replaceRules: {
      method: 'POST',
      path: '/api/v1/silent-hours',
      summary: 'Replace the complete set of silent-hours rules atomically',
      description:
        'One conditional write of the whole set: readers see the old set or the new one, and a replace racing ' +
        'another change is applied after it or answers 409. Every rule gets a new id; rules left out are deleted.',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { body: replaceRulesBody },
      response: { status: 200, data: rulesResponse },
    },
    replaceRule: {
      method: 'PUT',
      path: '/api/v1/silent-hours/:id',
      summary: 'Replace one silent-hours rule',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { params: ruleIdParams, body: ruleBody },
      response: { status: 200, data: ruleResponse },
    },
    deleteRule: {
      method: 'DELETE',
      path: '/api/v1/silent-hours/:id',
      summary: 'Delete one silent-hours rule',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { params: ruleIdParams },
      response: { status: 200, data: deletedRuleResponse },
    },
  },
});
