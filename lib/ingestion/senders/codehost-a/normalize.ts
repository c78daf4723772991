import type { NormalizedEvent, Normalizer } from '#lib/ingestion/normalized-event.ts';
import { PayloadError, parsePayload } from '#lib/ingestion/payload-error.ts';
import { lookupTable } from '#lib/ingestion/schema-kit.ts';
import { checkRun } from './check-run.ts';
import { commitStatus } from './commit-status.ts';
import { SENDER, envelopeSchema, type Delivery } from './common.ts';
import { deployment } from './deployment.ts';
import { otherEvent, ping } from './other-events.ts';
import { pullRequest } from './pull-request.ts';
import { push } from './push.ts';
import { workflowJob } from './workflow-job.ts';
import { workflowRun } from './workflow-run.ts';

const HANDLERS = lookupTable<(delivery: Delivery) => NormalizedEvent>({
  workflow_run: workflowRun,
  workflow_job: workflowJob,
  check_run: checkRun,
  status: commitStatus,
  deployment,
  deployment_status: deployment,
  push,
  pull_request: pullRequest,
  ping,
});

/**
 * Without `X-GitHub-Event`, the event a payload with an `action` is about, from the object it carries; in this
 * order because a deployment status also carries its deployment and sometimes its workflow run and check run.
 */
const INFERABLE_EVENTS = [
  'deployment_status',
  'deployment',
  'workflow_job',
  'workflow_run',
  'check_run',
  'pull_request',
];

const eventNameOf = (body: unknown, headers: Record<string, string>): string | undefined => {
  const header = headers['x-github-event']?.trim();
  if (header) return header;
  const object = body as Record<string, unknown>;
  return INFERABLE_EVENTS.find((name) => typeof object[name] === 'object' && object[name] !== null);
};

/**
 * Code host A webhooks. Failing workflow runs, workflow jobs, check runs and commit statuses and failed
 * deployments are problems; everything else (pings, pushes, pull requests, successful runs...) is a record.
 */
export const normalizeCodehostA: Normalizer = (body, headers, receivedAt) => {
  const envelope = parsePayload(SENDER, envelopeSchema, body);
  const named = Boolean(headers['x-github-event']?.trim());
  const event = eventNameOf(body, headers) ?? (envelope.action === undefined ? undefined : 'unknown');
  // The spec requires `action` and `repository`; only an event that names itself in the header may lack them.
  const missing = [
    ...(event === undefined ? ['action: Invalid input: expected string, received undefined'] : []),
    ...(!named && !envelope.repository ? ['repository: Invalid input: expected object, received undefined'] : []),
  ];
  if (event === undefined || missing.length > 0) {
    throw new PayloadError(
      SENDER,
      missing.map((message) => `${message} (or an X-GitHub-Event header)`),
    );
  }
  const handler = HANDLERS.get(event) ?? otherEvent;
  return [handler({ event, envelope, body, receivedAt: receivedAt.toISOString() })];
};
