import { defineGroup } from '#lib/http/route.ts';
import { createProblemBody, listProblemsQuery, problemIdParams, updateProblemBody } from '#lib/problems/schemas.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';
import { emptyData, metaExtra } from '#lib/contract/response-fields.ts';
import { problemData } from '#lib/problems/schemas.ts';
import * as z from 'zod/mini';

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
      response: { status: 201, data: problemData },
    },
    listProblems: {
      method: 'GET',
      path: '/api/v1/problems',
      summary: 'List problems, newest first',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      request: { query: listProblemsQuery },
      response: { status: 200, data: z.array(problemData), extra: metaExtra },
    },
    getProblem: {
      method: 'GET',
      path: '/api/v1/problems/:id',
      summary: 'Get a problem',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      request: { params: problemIdParams },
      response: { status: 200, data: problemData },
    },
    updateProblem: {
      method: 'PUT',
      path: '/api/v1/problems/:id',
      summary: 'Update a problem; only provided fields change',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { params: problemIdParams, body: updateProblemBody },
      response: { status: 200, data: problemData },
    },
    deleteProblem: {
      method: 'DELETE',
      path: '/api/v1/problems/:id',
      summary: 'Delete a problem irreversibly',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { params: problemIdParams },
      response: { status: 200, data: emptyData },
    },
  },
});
