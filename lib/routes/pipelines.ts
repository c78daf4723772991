import { defineGroup } from '#lib/http/route.ts';
import { listRunsQuery, runIdParams } from '#lib/pipelines/schemas.ts';
import { tableRead } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';
import { paginationExtra } from '#lib/contract/response-fields.ts';
import { runData, runsData } from '#lib/pipelines/schemas.ts';

export const pipelines = defineGroup({
  name: 'pipelines',
  description: 'Pipeline run history recorded from code-host webhooks; read-only.',
  needs: [tableRead, signingKeys],
  routes: {
    listRuns: {
      method: 'GET',
      path: '/api/v1/pipelines',
      summary: 'List pipeline runs, newest start first',
      auth: 'bearerOrApiKey',
      scope: 'analytics:read',
      access: 'read',
      request: { query: listRunsQuery },
      response: { status: 200, data: runsData, extra: paginationExtra },
    },
    getRun: {
      method: 'GET',
      path: '/api/v1/pipelines/:id',
      summary: 'Get a pipeline run with its jobs and raw payload',
      auth: 'bearerOrApiKey',
      scope: 'analytics:read',
      access: 'read',
      request: { params: runIdParams },
      response: { status: 200, data: runData },
    },
  },
});
