import { randomUUID } from 'node:crypto';
import { asFields } from '#lib/ingestion/delivery-fields.ts';
import type { SenderFixtures } from '../sender.ts';

/** `X-Gitlab-Event` per `object_kind` (test/fixtures/ingestion/codehost-b/HEADERS.md). */
const GITLAB_EVENTS: Readonly<Record<string, string>> = {
  push: 'Push Hook',
  tag_push: 'Tag Push Hook',
  merge_request: 'Merge Request Hook',
  pipeline: 'Pipeline Hook',
  build: 'Job Hook',
  deployment: 'Deployment Hook',
};

/** What the tests post and the demo replays, as the sender posts it (test/fixtures/README.md). */
export const fixtures: SenderFixtures = {
  files: ['pipeline.json', 'build.json', 'deployment.json', 'job.json', 'merge_request.json', 'push.json'],
  headers: (_file, body) => ({
    'content-type': 'application/json',
    'user-agent': 'GitLab/16.9.0',
    'x-gitlab-event': GITLAB_EVENTS[String(asFields(body).object_kind)] ?? 'System Hook',
    'x-gitlab-instance': 'https://gitlab.example.com',
    'x-gitlab-event-uuid': randomUUID(),
    'x-gitlab-webhook-uuid': randomUUID(),
  }),
};
