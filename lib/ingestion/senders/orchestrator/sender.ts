import { asFields, text } from '#lib/ingestion/delivery-fields.ts';
import { defineSender } from '../sender.ts';

/** Kubernetes events, posted by the agent of `GET /ingestion/orchestrator/manifest` (docs/ingestion.md). */
export const orchestrator = defineSender({
  name: 'orchestrator',
  route: { summary: 'Ingest an orchestrator event' },
  normalizer: async () => (await import('./normalize.ts')).normalizeOrchestrator,
  // The Event object's `metadata.uid` with its `metadata.resourceVersion`, which changes whenever the event does
  // (a repeat raises its `count`), so only the same version of the same event matches.
  deliveryId: (_headers, body) => {
    const metadata = asFields(asFields(body).metadata);
    const uid = text(metadata.uid);
    const version = text(metadata.resourceVersion);
    return uid && version ? `${uid}@${version}` : undefined;
  },
  fixtures: async () => (await import('./fixtures.ts')).fixtures,
});
