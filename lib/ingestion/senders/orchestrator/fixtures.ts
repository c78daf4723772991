import type { SenderFixtures } from '../sender.ts';

/** What the tests post and the demo replays, as the sender posts it (test/fixtures/README.md). */
export const fixtures: SenderFixtures = {
  files: [
    'event-02-Normal-Scheduled-Pod.json',
    'core.v1.Event.json',
    'event-09-Normal-Killing-Pod.json',
    'events.k8s.io.v1.Event.json',
  ],
};
