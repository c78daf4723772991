import * as z from 'zod/mini';
import { pageAndTotal, reportView, riskSummaryView } from '#lib/blast-radius/responses.ts';
import { calculateBody, listReportsQuery, reportIdParams, triggerIdParams } from '#lib/blast-radius/schemas.ts';
import { defineGroup } from '#lib/http/route.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';

export const blastRadius = defineGroup({
  name: 'blast-radius',
  description: 'Blast-radius reports: services affected by a trigger or a service, and risk summaries.',
  needs: [tableReadWrite, signingKeys],
  routes: {
    calculate: {
      method: 'POST',
      path: '/api/v1/blast-radius/calculate',
      summary: 'Calculate a blast-radius report; storing it makes this a write (incidents:write)',
      description:
        'Exactly one of `triggerId` (a signal or an incident naming a service) and `serviceId`. The risk model is in docs/service-map.md.',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { body: calculateBody },
      response: { status: 201, data: reportView },
    },
    listReports: {
      method: 'GET',
      path: '/api/v1/blast-radius',
      summary: 'List blast-radius reports, newest first',
      auth: 'bearerOrApiKey',
      scope: 'analytics:read',
      access: 'read',
      request: { query: listReportsQuery },
      response: { status: 200, data: z.array(reportView), extra: pageAndTotal },
    },
    getRiskSummary: {
      method: 'GET',
      path: '/api/v1/blast-radius/risk-summary',
      summary: 'Risk summary across analysed services',
      auth: 'bearerOrApiKey',
      scope: 'analytics:read',
      access: 'read',
      response: { status: 200, data: riskSummaryView },
    },
    listTriggerReports: {
      method: 'GET',
      path: '/api/v1/blast-radius/trigger/:triggerId',
      summary: 'Blast-radius reports for a trigger, newest first',
      auth: 'bearerOrApiKey',
      scope: 'analytics:read',
      access: 'read',
      request: { params: triggerIdParams },
      response: { status: 200, data: z.array(reportView) },
    },
    getReport: {
      method: 'GET',
      path: '/api/v1/blast-radius/:id',
      summary: 'Get a blast-radius report',
      auth: 'bearerOrApiKey',
      scope: 'analytics:read',
      access: 'read',
      request: { params: reportIdParams },
      response: { status: 200, data: reportView },
    },
  },
});
