import { randomUUID } from 'node:crypto';
import { asFields } from '#lib/ingestion/delivery-fields.ts';
import type { SenderFixtures } from '../sender.ts';

/** What the tests post and the demo replays, as the sender posts it (test/fixtures/README.md). */
export const fixtures: SenderFixtures = {
  files: [
    'v2-01-incident_trigger.json',
    'go-pagerduty-signed-vector.json',
    'triggered_v3.json',
    'v2-03-incident_resolve.json',
    'v3-02-webhook_payload.json',
  ],
  headers: (_file, body): Record<string, string> =>
    'event' in asFields(body)
      ? {
          'content-type': 'application/json',
          'user-agent': 'PagerDuty-Webhook/V3.0',
          'x-webhook-id': randomUUID(),
          'x-webhook-subscription': 'PSDUE2H',
        }
      : { 'content-type': 'application/json', 'user-agent': 'PagerDuty-Webhook/V2.0' },
};
