import { ROUTED_SENDERS, SIGNED_SENDERS } from '#lib/ingestion/senders/index.ts';
import { ingestRouteKey } from '#lib/ingestion/senders/sender.ts';
import { CHANGE_ENQUEUE, ENQUEUE, fixtureOf, postEvent } from '../../event-apis/support.ts';
import {
  V1,
  byAdmin,
  byFreshKey,
  byKey,
  creating,
  fixturesOf,
  queuedAlertGroup,
  snsFixtures,
  withIds,
  type RouteRequests,
} from './request-helpers.ts';
const signal = (name: string, metadata: Record<string, unknown> = {}) => ({
  name,
  source: 'least-privilege',
  severity: 'HIGH',
  metadata,
});

/** `<group>.<route key>` of signals, correlation rules, ingestion (every sender) and pipelines. */
export const SIGNAL_REQUESTS: Record<string, RouteRequests> = {
  'signals.listSignals': byKey('/signals'),
  'signals.getSignalStats': byKey('/signals/stats'),
  'signals.getSignal': async (context) => {
    // Metadata past what an item holds inline is an object, which reading the signal loads.
    await creating(context, 'largeSignal', '/signals', signal('large', { dump: 'y'.repeat(20 * 1024) }));
    return withIds('GET', ({ largeSignal }) => `/signals/${largeSignal}`)(context);
  },
  'signals.createSignal': (context) => creating(context, 'signal', '/signals', signal('disk full')),
  'signals.createSignalsBulk': byAdmin('POST', '/signals/bulk', {
    signals: [signal('cpu high'), signal('cpu higher')],
  }),
  'signals.acknowledgeSignal': withIds('PATCH', ({ signal: id }) => `/signals/${id}/acknowledge`, { note: 'on it' }),
  'signals.resolveSignal': withIds('PATCH', ({ signal: id }) => `/signals/${id}/resolve`, {}),
  'signals.suppressSignal': withIds('PATCH', ({ largeSignal }) => `/signals/${largeSignal}/suppress`, {
    reason: 'noise',
  }),

  'correlation-rules.listRules': byKey('/correlation-rules'),
  'correlation-rules.getRule': async (context) => {
    await creating(context, 'rule', '/correlation-rules', { name: 'Checkout', action: { priority: 'HIGH' } });
    return withIds('GET', ({ rule }) => `/correlation-rules/${rule}`)(context);
  },
  'correlation-rules.createRule': byAdmin('POST', '/correlation-rules', {
    name: 'Storage',
    action: { priority: 'LOW' },
  }),
  'correlation-rules.updateRule': withIds('PUT', ({ rule }) => `/correlation-rules/${rule}`, { windowMinutes: 15 }),
  'correlation-rules.deleteRule': withIds('DELETE', ({ rule }) => `/correlation-rules/${rule}`),

  // Every sender's fixtures as it posts them; below, the senders whose deliveries are not their fixtures as they are.
  ...Object.fromEntries(ROUTED_SENDERS.map((sender) => [`ingestion.${ingestRouteKey(sender)}`, fixturesOf(sender)])),
  'ingestion.ingestMetricsAlerts': async (context) => [
    ...(await fixturesOf('metrics-alerts')(context)),
    await queuedAlertGroup(context),
  ],
  'ingestion.ingestWebhook': ({ client, keyHeaders }) =>
    client.request(
      'POST',
      `${V1}/ingestion/webhook`,
      { source: 'checkout', title: 'Payment errors above 5%', severity: 'critical', status: 'firing' },
      keyHeaders,
    ),
  'ingestion.ingestCloudwatch': snsFixtures,
  // The API key as the routing key, which the event APIs take besides an integration key.
  'ingestion.enqueueEventV2': ({ client, keyHeaders }) =>
    postEvent(client, ENQUEUE, fixtureOf('events-v2', 'pdjs-trigger.json', { routing_key: keyHeaders['x-api-key'] })),
  'ingestion.enqueueChangeEventV2': ({ client, keyHeaders }) =>
    postEvent(
      client,
      CHANGE_ENQUEUE,
      fixtureOf('events-v2', 'change-event.json', { routing_key: keyHeaders['x-api-key'] }),
    ),
  'ingestion.createOpsgenieAlert': ({ client, keyHeaders }) =>
    postEvent(client, `${V1}/opsgenie/v2/alerts`, fixtureOf('opsgenie', 'alertmanager-0.25-opsgenie-create.json'), {
      authorization: `GenieKey ${keyHeaders['x-api-key']}`,
    }),
  'ingestion.closeOpsgenieAlert': ({ client, keyHeaders }) =>
    postEvent(
      client,
      `${V1}/opsgenie/v2/alerts/checkout-alias/close?identifierType=alias`,
      {},
      {
        authorization: `GenieKey ${keyHeaders['x-api-key']}`,
      },
    ),
  'ingestion.acknowledgeOpsgenieAlert': ({ client, keyHeaders }) =>
    postEvent(
      client,
      `${V1}/opsgenie/v2/alerts/checkout-alias/acknowledge`,
      {},
      {
        authorization: `GenieKey ${keyHeaders['x-api-key']}`,
      },
    ),
  'ingestion.createIntegrationKey': (context) =>
    creating(context, 'integrationKey', '/ingestion/integration-keys', { name: 'checkout', serviceId: 'checkout' }),
  'ingestion.listIntegrationKeys': byAdmin('GET', '/ingestion/integration-keys'),
  'ingestion.deleteIntegrationKey': withIds(
    'DELETE',
    ({ integrationKey }) => `/ingestion/integration-keys/${integrationKey}`,
  ),
  'ingestion.getOrchestratorManifest': byKey('/ingestion/orchestrator/manifest'),
  'ingestion.listWebhookSecrets': byAdmin('GET', '/ingestion/secrets'),
  'ingestion.putWebhookSecret': byAdmin('PUT', `/ingestion/secrets/${SIGNED_SENDERS[0]}`, { secret: 's'.repeat(32) }),
  'ingestion.deleteWebhookSecret': byAdmin('DELETE', `/ingestion/secrets/${SIGNED_SENDERS[0]}`),

  'pipelines.listRuns': byFreshKey('/pipelines'),
  'pipelines.getRun': async (context) => {
    const list = await context.client.request('GET', `${V1}/pipelines`, undefined, context.keyHeaders);
    const id = list.body.data.runs[0]?.id;
    return context.client.request('GET', `${V1}/pipelines/${id}`, undefined, context.admin.auth);
  },
};
