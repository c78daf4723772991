import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { accepted, binary, created, ok } from '#lib/http/envelope.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import type { RouteHandler, RouteResult } from '#lib/http/route.ts';
import { type IngestionSender, ROUTED_SENDERS } from '#lib/ingestion/senders/index.ts';
import { ingestRouteKey } from '#lib/ingestion/senders/sender.ts';
import { orchestratorManifest, publicBaseUrl } from '#lib/ingestion/senders/orchestrator/manifest.ts';
import { ingestion } from '#lib/routes/ingestion.ts';
import { JSON_TYPE, YAML_TYPE } from '#lib/http/content-types.ts';
import type { ForeignAnswer } from '#lib/ingestion/senders/events-v2/enqueue.ts';

const { routes } = ingestion;

/** Services load on their route's first request (docs/performance.md, "Bundles and cold imports"). */
const webhookSecrets = onFirstUse(() => import('#lib/ingestion/webhook-secrets.ts'));
const receiveModule = onFirstUse(() => import('#lib/ingestion/receive-delivery.ts'));
const eventsV2 = onFirstUse(() => import('#lib/ingestion/senders/events-v2/enqueue.ts'));
const integrationKeys = onFirstUse(() => import('#lib/ingestion/integration-keys/integration-key-service.ts'));
const opsgenie = onFirstUse(() => import('#lib/ingestion/senders/opsgenie/receive.ts'));

/**
 * Every sender's POST: its payload in, 202 once each of its events is stored, or 200 for a message its sender
 * only acknowledges (an SNS subscription's confirmation).
 */
const receive =
  (sender: IngestionSender): RouteHandler =>
  async ({ scope, body, rawBody, headers }): Promise<RouteResult> => {
    const { receiveDelivery } = await receiveModule();
    const receipt = await receiveDelivery(scope, { sender, body, rawBody: rawBody ?? '', headers });
    if (receipt.kind === 'acknowledged') return ok(receipt.data, { message: receipt.message });
    const count = receipt.delivery.signals.length;
    return accepted(receipt.delivery, { message: count === 1 ? 'Event accepted' : `${count} events accepted` });
  };

/** One binding per registered sender (lib/ingestion/senders/registry.ts). */
const senderHandlers = Object.fromEntries(ROUTED_SENDERS.map((sender) => [ingestRouteKey(sender), receive(sender)]));

/** A paging tool's own JSON answer, as its senders read it. */
const foreign = ({ status, body }: ForeignAnswer): RouteResult => ({
  ...binary(JSON_TYPE, Buffer.from(JSON.stringify(body), 'utf8')),
  status,
});

export const handler = createGroupHandler(ingestion, {
  ...(senderHandlers as Record<keyof typeof routes, RouteHandler>),
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
    foreign(await (await eventsV2()).enqueueAlertEvent(accountScope, { body, rawBody: rawBody ?? '', headers })),
  enqueueChangeEventV2: async ({ accountScope, body, rawBody, headers }) =>
    foreign(await (await eventsV2()).enqueueChangeEvent(accountScope, { body, rawBody: rawBody ?? '', headers })),
  createOpsgenieAlert: async ({ accountScope, body, rawBody, headers, requestId }) =>
    foreign(await (await opsgenie()).createAlert(accountScope, { body, rawBody: rawBody ?? '', headers, requestId })),
  closeOpsgenieAlert: async ({ accountScope, params, body, rawBody, headers, requestId }) =>
    foreign(
      await (await opsgenie()).actOnAlert(accountScope, {
        action: 'close',
        identifier: params.identifier,
        body,
        rawBody: rawBody ?? '',
        headers,
        requestId,
      }),
    ),
  acknowledgeOpsgenieAlert: async ({ accountScope, params, body, rawBody, headers, requestId }) =>
    foreign(
      await (await opsgenie()).actOnAlert(accountScope, {
        action: 'acknowledge',
        identifier: params.identifier,
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
