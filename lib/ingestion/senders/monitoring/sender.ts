import { asFields, text } from '#lib/ingestion/delivery-fields.ts';
import { defineSender } from '../sender.ts';

/** Datadog webhooks (docs/ingestion.md, "Datadog"). */
export const monitoring = defineSender({
  name: 'monitoring',
  route: { summary: 'Ingest a monitoring event' },
  normalizer: async () => (await import('./normalize.ts')).normalizeMonitoring,
  // The body's `id` (the template's `$ID`, the id of the event notified; the spec requires it).
  deliveryId: (_headers, body) => {
    const { id } = asFields(body);
    return text(id) ?? (typeof id === 'number' ? String(id) : undefined);
  },
  fixtures: async () => (await import('./fixtures.ts')).fixtures,
});
