import * as z from 'zod/mini';
import { defineGroup } from '#lib/http/route.ts';
import {
  bulkResultView,
  createdSignalView,
  pageAndTotal,
  signalStatsView,
  signalSummaryView,
  signalView,
  signalWithCorrelationView,
} from '#lib/signals/responses.ts';
import {
  bulkSignalsBody,
  listSignalsQuery,
  noteBody,
  signalIdParams,
  suppressBody,
  signalInput,
} from '#lib/signals/schemas.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';
import { queueSender } from '#lib/ports/queue/queue-need.ts';
import { payloadObjects } from '#lib/ports/object-store/object-store-need.ts';
import { metrics } from '#lib/ports/metrics/metrics-need.ts';
import { CORRELATION_LANES } from '#lib/signals/correlation-lane.ts';

export const signals = defineGroup({
  name: 'signals',
  description: 'Signals (raw alert events): direct ingestion, acknowledgement, resolution and suppression.',
  needs: [
    tableReadWrite,
    signingKeys,
    queueSender('ingestion', ...CORRELATION_LANES),
    payloadObjects('readWrite'),
    metrics,
  ],
  routes: {
    listSignals: {
      method: 'GET',
      path: '/api/v1/signals',
      summary: 'List signals, most recently received first',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      request: { query: listSignalsQuery },
      response: { status: 200, data: z.array(signalSummaryView), extra: pageAndTotal },
    },
    getSignalStats: {
      method: 'GET',
      path: '/api/v1/signals/stats',
      summary: 'Signal counts by status and top sources',
      auth: 'bearerOrApiKey',
      scope: 'analytics:read',
      access: 'read',
      response: { status: 200, data: signalStatsView },
    },
    getSignal: {
      method: 'GET',
      path: '/api/v1/signals/:id',
      summary: 'Get a signal with its metadata',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      request: { params: signalIdParams },
      response: { status: 200, data: signalWithCorrelationView },
    },
    createSignal: {
      method: 'POST',
      path: '/api/v1/signals',
      summary: 'Ingest one signal',
      auth: 'bearerOrApiKey',
      scope: 'ingestion:write',
      access: 'write',
      request: { body: signalInput },
      response: {
        status: 201,
        otherStatuses: { 202: 'The table was busy: the signal is queued under `id` and stored shortly' },
        data: createdSignalView,
      },
    },
    createSignalsBulk: {
      method: 'POST',
      path: '/api/v1/signals/bulk',
      summary: 'Ingest up to 100 signals, each validated on its own',
      auth: 'bearerOrApiKey',
      scope: 'ingestion:write',
      access: 'write',
      request: { body: bulkSignalsBody },
      itemsValidatedAlone: 'signals',
      response: { status: 200, data: bulkResultView },
    },
    acknowledgeSignal: {
      method: 'PATCH',
      path: '/api/v1/signals/:id/acknowledge',
      summary: 'Acknowledge an open signal',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { params: signalIdParams, body: noteBody },
      response: { status: 200, data: signalView },
    },
    resolveSignal: {
      method: 'PATCH',
      path: '/api/v1/signals/:id/resolve',
      summary: 'Resolve a signal',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { params: signalIdParams, body: noteBody },
      response: { status: 200, data: signalView },
    },
    suppressSignal: {
      method: 'PATCH',
      path: '/api/v1/signals/:id/suppress',
      summary: 'Suppress a signal so it no longer correlates or notifies',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { params: signalIdParams, body: suppressBody },
      response: { status: 200, data: signalView },
    },
  },
});
