import { randomUUID } from 'node:crypto';
import type { SenderFixtures } from '../sender.ts';

/** What the tests post and the demo replays, as the sender posts it (test/fixtures/README.md). */
export const fixtures: SenderFixtures = {
  files: [
    'workflow_run.completed.0.json',
    'check_run.completed.1.json',
    'deployment_status.created.0.json',
    'ping.0.json',
    'pull_request.opened.0.json',
    'push.0.json',
    'workflow_run.requested.3.json',
  ],
  // test/fixtures/ingestion/codehost-a/HEADERS.md; the files are named after their event.
  headers: (file) => ({
    'content-type': 'application/json',
    'user-agent': 'GitHub-Hookshot/a1b2c3d',
    'x-github-event': file.split('.')[0] ?? '',
    'x-github-delivery': randomUUID(),
    'x-github-hook-id': '109948940',
    'x-github-hook-installation-target-id': '186853002',
    'x-github-hook-installation-target-type': 'repository',
  }),
};
