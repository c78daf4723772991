import { defineGroup } from '#lib/http/route.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';
import { analysisWorkflow } from '#lib/ports/workflow/workflow-need.ts';

export const assistant = defineGroup({
  name: 'assistant',
  description: 'The analysis engine: four-stage incident analysis, audience reports and outcome learning.',
  needs: [tableReadWrite, signingKeys, analysisWorkflow],
  routes: {
    analyse: {
      method: 'POST',
      path: '/api/v1/assistant/analyse',
      summary: 'Start an asynchronous analysis of an incident',
      auth: 'bearerOrApiKey',
      scope: 'postmortems:write',
      access: 'write',
    },
    listAnalyses: {
      method: 'GET',
      path: '/api/v1/assistant/analyses',
      summary: 'List analyses, newest first',
      auth: 'bearerOrApiKey',
      scope: 'postmortems:read',
      access: 'read',
    },
    getAnalysis: {
      method: 'GET',
      path: '/api/v1/assistant/analysis/:incidentId',
      summary: 'Latest completed analysis of an incident, with its generated reports',
      auth: 'bearerOrApiKey',
      scope: 'postmortems:read',
      access: 'read',
    },
    generateReport: {
      method: 'POST',
      path: '/api/v1/assistant/report',
      summary: 'Generate an engineer or leadership report from an analysis',
      auth: 'bearerOrApiKey',
      scope: 'postmortems:write',
      access: 'write',
    },
    learn: {
      method: 'POST',
      path: '/api/v1/assistant/learn',
      summary: 'Record the outcome of an incident to update pattern memory',
      auth: 'bearerOrApiKey',
      scope: 'postmortems:write',
      access: 'write',
    },
    listPatterns: {
      method: 'GET',
      path: '/api/v1/assistant/patterns',
      summary: 'Learned incident patterns',
      auth: 'bearerOrApiKey',
      scope: 'postmortems:read',
      access: 'read',
    },
  },
});
