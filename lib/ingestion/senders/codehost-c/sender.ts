import { asFields, text } from '#lib/ingestion/delivery-fields.ts';
import { v1HmacHeader } from '#lib/ingestion/signature-rules.ts';
import { defineSender } from '../sender.ts';

/** CircleCI webhooks (docs/ingestion.md, "CircleCI"). */
export const codehostC = defineSender({
  name: 'codehost-c',
  route: { summary: 'Ingest a code host C pipeline or deployment webhook' },
  normalizer: async () => (await import('./normalize.ts')).normalizeCodehostC,
  signature: v1HmacHeader('circleci-signature'),
  // The body's `id`, one per event.
  deliveryId: (_headers, body) => text(asFields(body).id),
  fixtures: async () => (await import('./fixtures.ts')).fixtures,
});
