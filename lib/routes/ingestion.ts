import { defineGroup, type RouteSpec } from '#lib/http/route.ts';
import { manifestQuery } from '#lib/ingestion/senders/orchestrator/manifest.ts';
import { webhookSecretBody, webhookSecretData, webhookSecretParams } from '#lib/ingestion/webhook-secrets-schemas.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';
import { queueSender } from '#lib/ports/queue/queue-need.ts';
import { payloadObjects } from '#lib/ports/object-store/object-store-need.ts';
import { metrics } from '#lib/ports/metrics/metrics-need.ts';
import { CORRELATION_LANES } from '#lib/signals/correlation-lane.ts';
import { emptyData } from '#lib/contract/response-fields.ts';
import { deliveryData } from '#lib/ingestion/schemas.ts';
import { type IngestRouteKey, ingestRouteKey, type SenderDefinition } from '#lib/ingestion/senders/sender.ts';
import { SENDERS } from '#lib/ingestion/senders/registry.ts';
import { network } from '#lib/ports/network/network-need.ts';
import { alertIdentifierParams, alertIdentifierQuery } from '#lib/ingestion/senders/opsgenie/alert-schema.ts';
import * as z from 'zod/mini';
import { JSON_TYPE, YAML_TYPE } from '#lib/http/content-types.ts';
import {
  createdIntegrationKeyData,
  integrationKeyBody,
  integrationKeyData,
  integrationKeyParams,
} from '#lib/ingestion/integration-keys/schemas.ts';

// Real senders post large batches (alert groups, paging-tool message lists). DECISIONS.md allows 5 MiB, but API
// Gateway hands every body to the function base64 (lib/http/binary-media-types.ts), and Lambda takes at most
// 6 MB an invocation: 4 MiB is 5.33 MiB as base64, which leaves room for the headers and request context.
const INGESTION_MAX_BODY_BYTES = 4 * 1024 * 1024;

type SenderRoutes<Senders extends readonly SenderDefinition[]> = {
  [Sender in Senders[number] as Sender['route'] extends null ? never : IngestRouteKey<Sender['name']>]: RouteSpec;
};

/** Each sender's POST route (senders reached only through an API of their own have none), from its folder's definition (docs/ingestion.md, "Adding a sender"). */
const senderRoutes = <const Senders extends readonly SenderDefinition[]>(senders: Senders): SenderRoutes<Senders> =>
  Object.fromEntries(
    senders.flatMap(({ name, route }): [string, RouteSpec][] => {
      if (!route) return [];
      const spec: RouteSpec = {
        method: 'POST',
        path: `/api/v1/ingestion/${name}`,
        summary: route.summary,
        auth: 'apiKey',
        scope: 'ingestion:write',
        access: 'write',
        maxBodyBytes: INGESTION_MAX_BODY_BYTES,
        response: route.acknowledgement
          ? {
              status: 202,
              otherStatuses: { 200: route.acknowledgement.when },
              data: z.union([deliveryData, route.acknowledgement.data]),
            }
          : { status: 202, data: deliveryData },
        ...(route.moreErrors && { moreErrors: route.moreErrors }),
      };
      return [[ingestRouteKey(name), spec]];
    }),
  ) as SenderRoutes<Senders>;

export const ingestion = defineGroup({
  name: 'ingestion',
  description:
    'Source-specific ingestion of external events as signals (API key with ingestion:write only), and the webhook signing secrets (Bearer, ADMIN).',
  // The network: SNS subscription confirmations and signing certificates are fetched from SNS.
  needs: [
    tableReadWrite,
    signingKeys,
    queueSender('ingestion', ...CORRELATION_LANES),
    payloadObjects('write'),
    metrics,
    network,
  ],
  routes: {
    ...senderRoutes(SENDERS),
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
