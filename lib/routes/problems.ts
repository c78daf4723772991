import { defineGroup } from '#lib/http/route.ts';
import { createProblemBody, listProblemsQuery, problemIdParams, updateProblemBody } from '#lib/problems/schemas.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';

export const problems = defineGroup({
  name: 'problems',
  description: 'Problem records grouping related incidents around a shared root cause.',
  needs: [tableReadWrite, signingKeys],
  routes: {
    createProblem: {
      method: 'POST',
      path: '/api/v1/problems',
      summary: 'Create a problem',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { body: createProblemBody },
    },
    listProblems: {
      method: 'GET',
      path: '/api/v1/problems',
      summary: 'List problems, newest first',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      request: { query: listProblemsQuery },
    },
    getProblem: {
      method: 'GET',
      path: '/api/v1/problems/:id',
      summary: 'Get a problem',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      request: { params: problemIdParams },
    },
    updateProblem: {
      method: 'PUT',
      path: '/api/v1/problems/:id',
      summary: 'Update a problem; only provided fields change',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { params: problemIdParams, body: updateProblemBody },
    },
    deleteProblem: {
      method: 'DELETE',
      path: '/api/v1/problems/:id',
      summary: 'Delete a problem irreversibly',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { params: problemIdParams },
    },
  },
});
