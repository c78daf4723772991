import { asFields, nonEmpty, text } from '#lib/ingestion/delivery-fields.ts';
import { v1HmacHeader } from '#lib/ingestion/signature-rules.ts';
import { defineSender } from '../sender.ts';

/** PagerDuty webhooks, v3 and v2 (docs/ingestion.md, "PagerDuty"). */
export const paging = defineSender({
  name: 'paging',
  route: { summary: 'Ingest paging-tool v3 webhook messages' },
  normalizer: async () => (await import('./normalize.ts')).normalizePaging,
  signature: v1HmacHeader('x-pagerduty-signature'),
  // `X-Webhook-Id` (v3; kept on retry), else the v3 body's `event.id`.
  deliveryId: (headers, body) => nonEmpty(headers['x-webhook-id']) ?? text(asFields(asFields(body).event).id),
  // A v2 body names each message (`messages[].id`, documented as the message's idempotency key), so each event
  // takes its message's id, wherever the message travels again.
  eventIds: (body) => {
    const { messages } = asFields(body);
    return Array.isArray(messages) ? messages.map((message) => text(asFields(message).id)) : undefined;
  },
  fixtures: async () => (await import('./fixtures.ts')).fixtures,
});
