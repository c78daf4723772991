import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { accepted, binary, created, ok } from '#lib/http/envelope.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import type { RouteRequest, RouteResult } from '#lib/http/route.ts';
import type { IngestionSender } from '#lib/ingestion/normalized-event.ts';
import type { IngestedDelivery } from '#lib/ingestion/ingest-delivery.ts';
import { orchestratorManifest, publicBaseUrl } from '#lib/ingestion/orchestrator-manifest.ts';
import { ingestion } from '#lib/routes/ingestion.ts';
import { JSON_TYPE, YAML_TYPE } from '#lib/http/content-types.ts';
import type { ForeignAnswer } from '#lib/ingestion/events-v2/enqueue.ts';

const { routes } = ingestion;

/** Services load on their route's first request (docs/performance.md, "Bundles and cold imports"). */
const webhookSecrets = onFirstUse(() => import('#lib/ingestion/webhook-secrets.ts'));
const ingestDeliveryModule = onFirstUse(() => import('#lib/ingestion/ingest-delivery.ts'));
const eventsV2 = onFirstUse(() => import('#lib/ingestion/events-v2/enqueue.ts'));
const integrationKeys = onFirstUse(() => import('#lib/ingestion/integration-keys/integration-key-service.ts'));
const opsgenie = onFirstUse(() => import('#lib/ingestion/opsgenie/receive.ts'));
const snsModule = onFirstUse(() => import('#lib/ingestion/cloudwatch/receive-sns.ts'));

const acceptedDelivery = (result: IngestedDelivery): RouteResult => {
  const count = result.signals.length;
  return accepted(result, { message: count === 1 ? 'Event accepted' : `${count} events accepted` });
};

/** Every ingestion POST: the sender's payload in, 202 once each of its events is stored. */
const ingest =
  (sender: IngestionSender) =>
  async ({ scope, body, rawBody, headers }: RouteRequest): Promise<RouteResult> => {
    const { ingestDelivery } = await ingestDeliveryModule();
    return acceptedDelivery(await ingestDelivery(scope, { sender, body, rawBody: rawBody ?? '', headers }));
  };

/** A paging tool's own JSON answer, as its senders read it. */
const foreign = ({ status, body }: ForeignAnswer): RouteResult => ({
  ...binary(JSON_TYPE, Buffer.from(JSON.stringify(body), 'utf8')),
  status,
});

export const handler = createGroupHandler(ingestion, {
  ingestCodehostA: ingest('codehost-a'),
  ingestCodehostB: ingest('codehost-b'),
  ingestCodehostC: ingest('codehost-c'),
  ingestOrchestrator: ingest('orchestrator'),
  ingestPaging: ingest('paging'),
  ingestMetricsAlerts: ingest('metrics-alerts'),
  ingestMonitoring: ingest('monitoring'),
  ingestWebhook: ingest('webhook'),
  ingestEventbridge: ingest('eventbridge'),
  ingestCloudwatch: async ({ scope, body, rawBody, headers }) => {
    const receipt = await (await snsModule()).receiveSnsDelivery(scope, { body, rawBody: rawBody ?? '', headers });
    if (receipt.kind === 'delivery') return acceptedDelivery(receipt.delivery);
    const { confirmation } = receipt;
    return ok(confirmation, {
      message: confirmation.subscription === 'confirmed' ? 'Subscription confirmed' : 'Unsubscribe noted',
    });
  },
  getOrchestratorManifest: async ({ query, event, headers }) => {
    const base = publicBaseUrl(event, headers, routes.getOrchestratorManifest.path);
    const manifest = orchestratorManifest({
      ingestionUrl: `${base}${routes.ingestOrchestrator.path}`,
      apiKey: query.apiKey,
    });
    return binary(YAML_TYPE, Buffer.from(manifest, 'utf8'), {
      'content-disposition': 'inline; filename="incident-service-event-exporter.yaml"',
    });
  },
  enqueueEventV2: async ({ accountScope, body, rawBody, headers }) =>
    foreign(await (await eventsV2()).enqueueAlertEvent(accountScope.ports, { body, rawBody: rawBody ?? '', headers })),
  enqueueChangeEventV2: async ({ accountScope, body, rawBody, headers }) =>
    foreign(await (await eventsV2()).enqueueChangeEvent(accountScope.ports, { body, rawBody: rawBody ?? '', headers })),
  createOpsgenieAlert: async ({ accountScope, body, rawBody, headers, requestId }) =>
    foreign(
      await (await opsgenie()).createAlert(accountScope.ports, { body, rawBody: rawBody ?? '', headers, requestId }),
    ),
  closeOpsgenieAlert: async ({ accountScope, params, body, rawBody, headers, requestId }) =>
    foreign(
      await (await opsgenie()).actOnAlert(accountScope.ports, 'close', params.identifier, {
        body,
        rawBody: rawBody ?? '',
        headers,
        requestId,
      }),
    ),
  acknowledgeOpsgenieAlert: async ({ accountScope, params, body, rawBody, headers, requestId }) =>
    foreign(
      await (await opsgenie()).actOnAlert(accountScope.ports, 'acknowledge', params.identifier, {
        body,
        rawBody: rawBody ?? '',
        headers,
        requestId,
      }),
    ),
  listIntegrationKeys: async ({ scope }) => ok(await (await integrationKeys()).listIntegrationKeys(scope)),
  createIntegrationKey: async ({ scope, body }) =>
    created(await (await integrationKeys()).createIntegrationKey(scope, body), { message: 'Integration key created' }),
  deleteIntegrationKey: async ({ scope, params }) => {
    await (await integrationKeys()).deleteIntegrationKey(scope, params.keyId);
    return ok({}, { message: 'Integration key deleted' });
  },
  listWebhookSecrets: async ({ scope }) => ok(await (await webhookSecrets()).listWebhookSecrets(scope)),
  putWebhookSecret: async ({ scope, params, body }) =>
    ok(await (await webhookSecrets()).setWebhookSecret(scope, { sender: params.sender, secret: body.secret }), {
      message: 'Webhook secret set',
    }),
  deleteWebhookSecret: async ({ scope, params }) => {
    await (await webhookSecrets()).deleteWebhookSecret(scope, params.sender);
    return ok({}, { message: 'Webhook secret removed' });
  },
});
