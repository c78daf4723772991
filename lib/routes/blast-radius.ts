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
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
    },
    listReports: {
      method: 'GET',
      path: '/api/v1/blast-radius',
      summary: 'List blast-radius reports',
      auth: 'bearerOrApiKey',
      scope: 'analytics:read',
      access: 'read',
    },
    getRiskSummary: {
      method: 'GET',
      path: '/api/v1/blast-radius/risk-summary',
      summary: 'Risk summary across analysed services',
      auth: 'bearerOrApiKey',
      scope: 'analytics:read',
      access: 'read',
    },
    listTriggerReports: {
      method: 'GET',
      path: '/api/v1/blast-radius/trigger/:triggerId',
      summary: 'Blast-radius reports for a trigger',
      auth: 'bearerOrApiKey',
      scope: 'analytics:read',
      access: 'read',
    },
    getReport: {
      method: 'GET',
      path: '/api/v1/blast-radius/:id',
      summary: 'Get a blast-radius report',
      auth: 'bearerOrApiKey',
      scope: 'analytics:read',
      access: 'read',
    },
  },
});
