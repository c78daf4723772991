import { defineSender } from '../sender.ts';

/** The canonical generic payload, for anything else (docs/ingestion.md, "Anything else"); it gives no delivery id. */
export const webhook = defineSender({
  name: 'webhook',
  route: { summary: 'Ingest a canonical generic webhook payload' },
  normalizer: async () => (await import('./normalize.ts')).normalizeWebhook,
});
