import type { SenderFixtures } from '../sender.ts';

/** What the tests post and the demo replays, as the sender posts it (test/fixtures/README.md). */
export const fixtures: SenderFixtures = {
  files: ['default-payload-template.json'],
};
