import * as z from 'zod/mini';
import {
  analysisSchema,
  latestAnalysisSchema,
  learnedSchema,
  pageAndTotal,
  patternSchema,
  reportSchema,
} from '#lib/analysis/response-schemas.ts';
import {
  analyseBody,
  analysisIdParams,
  incidentAnalysisParams,
  learnBody,
  listAnalysesQuery,
  reportBody,
} from '#lib/analysis/schemas.ts';
import { defineGroup } from '#lib/http/route.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
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
      description:
        'Answers 202 with the new PROCESSING analysis and runs its four stages in the background; while an ' +
        'analysis of the incident is running, answers 200 with that one instead of starting another. ' +
        "`estimatedCompletionSeconds` is the rolling average of the workspace's completed analyses (30 before any).",
      auth: 'bearerOrApiKey',
      scope: 'postmortems:write',
      access: 'write',
      request: { body: analyseBody },
      response: {
        status: 202,
        otherStatuses: { 200: 'An analysis of the incident is already running: that one' },
        data: analysisSchema,
      },
    },
    listAnalyses: {
      method: 'GET',
      path: '/api/v1/assistant/analyses',
      summary: 'List analyses, newest first',
      auth: 'bearerOrApiKey',
      scope: 'postmortems:read',
      access: 'read',
      request: { query: listAnalysesQuery },
      response: { status: 200, data: z.array(analysisSchema), extra: pageAndTotal },
    },
    getAnalysisStatus: {
      method: 'GET',
      path: '/api/v1/assistant/analyses/:analysisId',
      summary: 'One analysis as it stands, to poll after POST /analyse',
      auth: 'bearerOrApiKey',
      scope: 'postmortems:read',
      access: 'read',
      request: { params: analysisIdParams },
      response: { status: 200, data: analysisSchema },
    },
    getAnalysis: {
      method: 'GET',
      path: '/api/v1/assistant/analysis/:incidentId',
      summary: 'Latest completed analysis of an incident, with its generated reports',
      description: 'With the evidence its claims cite (`citations` name evidence `id`s); 404 when none has completed.',
      auth: 'bearerOrApiKey',
      scope: 'postmortems:read',
      access: 'read',
      request: { params: incidentAnalysisParams },
      response: { status: 200, data: latestAnalysisSchema },
    },
    generateReport: {
      method: 'POST',
      path: '/api/v1/assistant/report',
      summary: 'Generate an engineer or leadership report from an analysis',
      description: 'The analysis must be COMPLETE (409 otherwise). The report is stored with the analysis.',
      auth: 'bearerOrApiKey',
      scope: 'postmortems:write',
      access: 'write',
      request: { body: reportBody },
      response: { status: 201, data: reportSchema },
    },
    learn: {
      method: 'POST',
      path: '/api/v1/assistant/learn',
      summary: 'Record the outcome of an incident to update pattern memory',
      description:
        'One outcome per incident, the latest wins; the incident needs a completed analysis (409 otherwise).',
      auth: 'bearerOrApiKey',
      scope: 'postmortems:write',
      access: 'write',
      request: { body: learnBody },
      response: { status: 200, data: learnedSchema },
    },
    listPatterns: {
      method: 'GET',
      path: '/api/v1/assistant/patterns',
      summary: 'Learned incident patterns',
      auth: 'bearerOrApiKey',
      scope: 'postmortems:read',
      access: 'read',
      response: { status: 200, data: z.array(patternSchema) },
    },
  },
});
