import { asFields, text } from '#lib/ingestion/delivery-fields.ts';
import { defineSender } from '../sender.ts';

/** Amazon EventBridge events posted by an API destination (docs/ingestion.md, "AWS: EventBridge"). */
export const eventbridge = defineSender({
  name: 'eventbridge',
  route: { summary: 'Ingest an Amazon EventBridge event posted by an API destination (docs/ingestion.md)' },
  normalizer: async () => (await import('./normalize.ts')).normalizeEventbridge,
  // The event's `id`, the same on each of the API destination's retries.
  deliveryId: (_headers, body) => text(asFields(body).id),
  fixtures: async () => (await import('./fixtures.ts')).fixtures,
});
