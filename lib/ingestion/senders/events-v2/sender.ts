import { defineSender } from '../sender.ts';

/**
 * PagerDuty Events API v2 (docs/ingestion.md, "PagerDuty Events API v2"): alert events and change events, each
 * a source of its own. Reached only through the compatible API (`/api/v1/events/v2/...`), authenticated by the
 * routing key in the body (an integration key); its fixtures are under test/fixtures/event-apis/.
 */
export const eventsV2 = defineSender({
  name: 'events-v2',
  route: null,
  normalizer: async () => (await import('./normalize.ts')).normalizeEventsV2,
});

export const eventsV2Change = defineSender({
  name: 'events-v2-change',
  route: null,
  normalizer: async () => (await import('./normalize.ts')).normalizeChangeEvent,
});
