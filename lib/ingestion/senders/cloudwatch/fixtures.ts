import type { SenderFixtures } from '../sender.ts';

/** What the tests post and the demo replays, as the sender posts it (test/fixtures/README.md). */
export const fixtures: SenderFixtures = {
  files: [
    'alarm-notification.json',
    'insufficient-data-notification.json',
    'ok-notification.json',
    'subscription-confirmation.json',
  ],
};
