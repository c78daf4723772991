import type { SenderFixtures } from '../sender.ts';

/** What the tests post and the demo replays, as the sender posts it (test/fixtures/README.md). */
export const fixtures: SenderFixtures = {
  files: [
    'captured-firing-2alerts.json',
    'captured-request-with-headers.json',
    'captured-resolved.json',
    'captured.json',
  ],
  headers: () => ({ 'content-type': 'application/json', 'user-agent': 'Alertmanager/0.25.0' }),
};
