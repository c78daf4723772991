import { defineSender } from '../sender.ts';

/**
 * Opsgenie Alert API calls (docs/ingestion.md, "Opsgenie Alert API"), reached only through the compatible API
 * (`/api/v1/opsgenie/v2/alerts...`), authenticated by `Authorization: GenieKey` (an integration key); its
 * fixtures are under test/fixtures/event-apis/.
 */
export const opsgenie = defineSender({
  name: 'opsgenie',
  route: null,
  normalizer: async () => (await import('./normalize.ts')).normalizeOpsgenie,
});
