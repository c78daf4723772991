import { nonEmpty } from '#lib/ingestion/delivery-fields.ts';
import { secretHeader } from '#lib/ingestion/signature-rules.ts';
import { defineSender } from '../sender.ts';

/** GitLab webhooks (docs/ingestion.md, "GitLab"). */
export const codehostB = defineSender({
  name: 'codehost-b',
  route: { summary: 'Ingest a code host B webhook (push, merge request, pipeline)' },
  normalizer: async () => (await import('./normalize.ts')).normalizeCodehostB,
  signature: secretHeader('x-gitlab-token'),
  // `Idempotency-Key` (GitLab 17.4+, made to stay the same across retries), else `X-Gitlab-Event-UUID`. Not
  // `X-Gitlab-Webhook-UUID`: it is new on every request, so a retry never matches.
  deliveryId: (headers) => nonEmpty(headers['idempotency-key']) ?? nonEmpty(headers['x-gitlab-event-uuid']),
  fixtures: async () => (await import('./fixtures.ts')).fixtures,
});
