import { asFields } from '#lib/ingestion/delivery-fields.ts';
import type { SenderFixtures } from '../sender.ts';

/** What the tests post and the demo replays, as the sender posts it (test/fixtures/README.md). */
export const fixtures: SenderFixtures = {
  files: [
    'docs-01-workflow-completed-github-oauth-bitbucket-cloud.json',
    'docs-02-job-completed-github-oauth-bitbucket-cloud.json',
  ],
  headers: (_file, body) => ({
    'content-type': 'application/json',
    'user-agent': 'CircleCI-Webhook/1.0',
    'circleci-event-type': String(asFields(body).type),
  }),
};
