import { defineGroup } from '#lib/http/route.ts';
import { manifestQuery } from '#lib/ingestion/orchestrator-manifest.ts';
import { webhookSecretBody, webhookSecretData, webhookSecretParams } from '#lib/ingestion/webhook-secrets-schemas.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';
import { queueSender } from '#lib/ports/queue/queue-need.ts';
import { payloadObjects } from '#lib/ports/object-store/object-store-need.ts';
import { metrics } from '#lib/ports/metrics/metrics-need.ts';
import { emptyData } from '#lib/contract/response-fields.ts';
import { deliveryData, snsConfirmationData } from '#lib/ingestion/schemas.ts';
import { network } from '#lib/ports/network/network-need.ts';
import { alertIdentifierParams, alertIdentifierQuery } from '#lib/ingestion/opsgenie/alert-schema.ts';
import * as z from 'zod/mini';
import { JSON_TYPE, YAML_TYPE } from '#lib/http/content-types.ts';
import {
  createdIntegrationKeyData,
  integrationKeyBody,
  integrationKeyData,
  integrationKeyParams,
} from '#lib/ingestion/integration-keys/integration-key.ts';

// Real senders post large batches (alert groups, paging-tool message lists). DECISIONS.md allows 5 MiB, but API
// Gateway hands every body to the function base64 (lib/http/binary-media-types.ts), and Lambda takes at most
// 6 MB an invocation: 4 MiB is 5.33 MiB as base64, which leaves room for the headers and request context.
const INGESTION_MAX_BODY_BYTES = 4 * 1024 * 1024;

export const ingestion = defineGroup({
  name: 'ingestion',
  description:
    'Source-specific ingestion of external events as signals (API key with ingestion:write only), and the webhook signing secrets (Bearer, ADMIN).',
  // The network: SNS subscription confirmations and signing certificates are fetched from SNS.
  needs: [
    tableReadWrite,
    signingKeys,
    queueSender('ingestion', 'correlation'),
    payloadObjects('write'),
    metrics,
    network,
  ],
  routes: {
    ingestCodehostA: {
      method: 'POST',
      path: '/api/v1/ingestion/codehost-a',
      summary: 'Ingest a code host A webhook (push, pull request, deployment status)',
      auth: 'apiKey',
      scope: 'ingestion:write',
      access: 'write',
      maxBodyBytes: INGESTION_MAX_BODY_BYTES,
      response: { status: 202, data: deliveryData },
    },
    ingestCodehostB: {
      method: 'POST',
      path: '/api/v1/ingestion/codehost-b',
      summary: 'Ingest a code host B webhook (push, merge request, pipeline)',
      auth: 'apiKey',
      scope: 'ingestion:write',
      access: 'write',
      maxBodyBytes: INGESTION_MAX_BODY_BYTES,
      response: { status: 202, data: deliveryData },
    },
    ingestCodehostC: {
      method: 'POST',
      path: '/api/v1/ingestion/codehost-c',
      summary: 'Ingest a code host C pipeline or deployment webhook',
      auth: 'apiKey',
      scope: 'ingestion:write',
      access: 'write',
      maxBodyBytes: INGESTION_MAX_BODY_BYTES,
      response: { status: 202, data: deliveryData },
    },
    ingestOrchestrator: {
      method: 'POST',
      path: '/api/v1/ingestion/orchestrator',
      summary: 'Ingest an orchestrator event',
      auth: 'apiKey',
      scope: 'ingestion:write',
      access: 'write',
      maxBodyBytes: INGESTION_MAX_BODY_BYTES,
      response: { status: 202, data: deliveryData },
    },
    getOrchestratorManifest: {
      method: 'GET',
      path: '/api/v1/ingestion/orchestrator/manifest',
      summary: 'Download the ingestion agent manifest (Kubernetes YAML, kubectl apply -f <url>)',
      auth: 'apiKey',
      scope: 'ingestion:write',
      access: 'read',
      request: { query: manifestQuery },
      response: { status: 200, contentType: YAML_TYPE },
    },
    ingestPaging: {
      method: 'POST',
      path: '/api/v1/ingestion/paging',
      summary: 'Ingest paging-tool v3 webhook messages',
      auth: 'apiKey',
      scope: 'ingestion:write',
      access: 'write',
      maxBodyBytes: INGESTION_MAX_BODY_BYTES,
      response: { status: 202, data: deliveryData },
    },
    ingestMetricsAlerts: {
      method: 'POST',
      path: '/api/v1/ingestion/metrics-alerts',
      summary: 'Ingest a metrics-alerting notification',
      auth: 'apiKey',
      scope: 'ingestion:write',
      access: 'write',
      maxBodyBytes: INGESTION_MAX_BODY_BYTES,
      response: { status: 202, data: deliveryData },
    },
    ingestMonitoring: {
      method: 'POST',
      path: '/api/v1/ingestion/monitoring',
      summary: 'Ingest a monitoring event',
      auth: 'apiKey',
      scope: 'ingestion:write',
      access: 'write',
      maxBodyBytes: INGESTION_MAX_BODY_BYTES,
      response: { status: 202, data: deliveryData },
    },
    ingestWebhook: {
      method: 'POST',
      path: '/api/v1/ingestion/webhook',
      summary: 'Ingest a canonical generic webhook payload',
      auth: 'apiKey',
      scope: 'ingestion:write',
      access: 'write',
      maxBodyBytes: INGESTION_MAX_BODY_BYTES,
      response: { status: 202, data: deliveryData },
    },
    ingestCloudwatch: {
      method: 'POST',
      path: '/api/v1/ingestion/cloudwatch',
      summary: 'Amazon SNS HTTPS subscription for CloudWatch alarms: SNS-signed messages only (docs/ingestion.md)',
      auth: 'apiKey',
      scope: 'ingestion:write',
      access: 'write',
      maxBodyBytes: INGESTION_MAX_BODY_BYTES,
      response: {
        status: 202,
        otherStatuses: { 200: 'an SNS subscription or unsubscribe confirmation; nothing stored' },
        data: z.union([deliveryData, snsConfirmationData]),
      },
      moreErrors: [502],
    },
    ingestEventbridge: {
      method: 'POST',
      path: '/api/v1/ingestion/eventbridge',
      summary: 'Ingest an Amazon EventBridge event posted by an API destination (docs/ingestion.md)',
      auth: 'apiKey',
      scope: 'ingestion:write',
      access: 'write',
      maxBodyBytes: INGESTION_MAX_BODY_BYTES,
      response: { status: 202, data: deliveryData },
    },
    enqueueEventV2: {
      method: 'POST',
      path: '/api/v1/events/v2/enqueue',
      summary: 'PagerDuty Events API v2 compatible alert event, authenticated by its routing_key (docs/ingestion.md)',
      description:
        'Answers as PagerDuty does: 202 `{ "status": "success", "message": "Event processed", "dedup_key": ... }`, ' +
        'a bad event 400 `{ "status": "invalid event", "message": ..., "errors": [...] }`.',
      auth: 'public',
      maxBodyBytes: INGESTION_MAX_BODY_BYTES,
      response: { status: 202, contentType: JSON_TYPE },
    },
    enqueueChangeEventV2: {
      method: 'POST',
      path: '/api/v1/events/v2/change/enqueue',
      summary: 'PagerDuty Events API v2 compatible change event: becomes a CHANGE ticket (docs/ingestion.md)',
      auth: 'public',
      maxBodyBytes: INGESTION_MAX_BODY_BYTES,
      response: { status: 202, contentType: JSON_TYPE },
    },
    createOpsgenieAlert: {
      method: 'POST',
      path: '/api/v1/opsgenie/v2/alerts',
      summary: 'Opsgenie Alert API compatible create, authenticated by Authorization: GenieKey (docs/ingestion.md)',
      description:
        'Answers as Opsgenie does: 202 `{ "result": "Request will be processed", "took": ..., "requestId": ... }`.',
      auth: 'public',
      maxBodyBytes: INGESTION_MAX_BODY_BYTES,
      response: { status: 202, contentType: JSON_TYPE },
    },
    closeOpsgenieAlert: {
      method: 'POST',
      path: '/api/v1/opsgenie/v2/alerts/:identifier/close',
      summary: 'Opsgenie Alert API compatible close: resolves the alert of that alias (identifierType id or alias)',
      auth: 'public',
      request: { params: alertIdentifierParams, query: alertIdentifierQuery },
      response: { status: 202, contentType: JSON_TYPE },
    },
    acknowledgeOpsgenieAlert: {
      method: 'POST',
      path: '/api/v1/opsgenie/v2/alerts/:identifier/acknowledge',
      summary: 'Opsgenie Alert API compatible acknowledge: kept as a record beside the alert',
      auth: 'public',
      request: { params: alertIdentifierParams, query: alertIdentifierQuery },
      response: { status: 202, contentType: JSON_TYPE },
    },
    listIntegrationKeys: {
      method: 'GET',
      path: '/api/v1/ingestion/integration-keys',
      summary: "The workspace's integration keys (routing keys, GenieKeys) per service, never the keys",
      auth: 'bearer',
      access: 'admin',
      response: { status: 200, data: z.array(integrationKeyData) },
    },
    createIntegrationKey: {
      method: 'POST',
      path: '/api/v1/ingestion/integration-keys',
      summary: 'Create an integration key for a service; the key is shown in this answer only',
      auth: 'bearer',
      access: 'admin',
      request: { body: integrationKeyBody },
      response: { status: 201, data: createdIntegrationKeyData },
    },
    deleteIntegrationKey: {
      method: 'DELETE',
      path: '/api/v1/ingestion/integration-keys/:keyId',
      summary: 'Delete an integration key; events carrying it are refused from then on',
      auth: 'bearer',
      access: 'admin',
      request: { params: integrationKeyParams },
      response: { status: 200, data: emptyData },
    },
    listWebhookSecrets: {
      method: 'GET',
      path: '/api/v1/ingestion/secrets',
      summary: 'Which senders have a webhook signing secret, and since when (never the secrets)',
      auth: 'bearer',
      access: 'admin',
      response: { status: 200, data: z.array(webhookSecretData) },
    },
    putWebhookSecret: {
      method: 'PUT',
      path: '/api/v1/ingestion/secrets/:sender',
      summary: "Set or replace a sender's webhook signing secret; a replaced one still verifies for 24 hours",
      auth: 'bearer',
      access: 'admin',
      request: { params: webhookSecretParams, body: webhookSecretBody },
      response: { status: 200, data: webhookSecretData },
    },
    deleteWebhookSecret: {
      method: 'DELETE',
      path: '/api/v1/ingestion/secrets/:sender',
      summary: "Remove a sender's webhook signing secret; its deliveries are no longer checked",
      auth: 'bearer',
      access: 'admin',
      request: { params: webhookSecretParams },
      response: { status: 200, data: emptyData },
    },
  },
});
