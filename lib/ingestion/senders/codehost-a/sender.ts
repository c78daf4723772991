import { nonEmpty } from '#lib/ingestion/delivery-fields.ts';
import { hmacSha256Header } from '#lib/ingestion/signature-rules.ts';
import { defineSender } from '../sender.ts';

/** GitHub webhooks (docs/ingestion.md, "GitHub"). */
export const codehostA = defineSender({
  name: 'codehost-a',
  route: { summary: 'Ingest a code host A webhook (push, pull request, deployment status)' },
  normalizer: async () => (await import('./normalize.ts')).normalizeCodehostA,
  signature: hmacSha256Header('x-hub-signature-256'),
  // `X-GitHub-Delivery`, kept on redelivery.
  deliveryId: (headers) => nonEmpty(headers['x-github-delivery']),
  fixtures: async () => (await import('./fixtures.ts')).fixtures,
});
