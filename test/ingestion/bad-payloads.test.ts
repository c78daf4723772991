import { describe, expect, it } from 'vitest';
import { BadRequestError } from '#lib/contract/errors.ts';
import { INGESTION_SENDERS, type IngestionSender } from '#lib/ingestion/senders/index.ts';
import { PayloadError } from '#lib/ingestion/payload-error.ts';
import {
  RECEIVED_AT,
  allFixtureFiles,
  loadFixture,
  withFields,
  normalizers,
  wellFormednessProblems,
} from './support.ts';

/** The PayloadError a bad payload must give: never another error, and field messages to answer 400 with. */
const payloadErrorOf = (sender: IngestionSender, body: unknown, headers: Record<string, string> = {}): PayloadError => {
  try {
    normalizers[sender](body, headers, RECEIVED_AT);
  } catch (error) {
    expect(error).toBeInstanceOf(PayloadError);
    return error as PayloadError;
  }
  throw new Error(`${sender} accepted ${JSON.stringify(body)}`);
};

/** What is wrong with a PayloadError's field messages: none at all, or one that does not start with its field. */
const fieldMessageProblems = ({ errors }: PayloadError, ...fields: string[]): string[] => [
  ...(errors.length === 0 ? ['no field messages'] : []),
  ...errors.filter((message) => !/^[\w.-]+: \S/.test(message)).map((message) => `"${message}" names no field`),
  ...fields
    .filter((field) => !errors.some((message) => message.startsWith(`${field}: `)))
    .map((field) => `no message for ${field} in ${JSON.stringify(errors)}`),
];

const expectFieldErrors = (error: PayloadError, ...fields: string[]) => {
  expect(fieldMessageProblems(error, ...fields)).toEqual([]);
};

describe('PayloadError', () => {
  it('is a 400 with field messages, so the error envelope answers it as it is', () => {
    const error = payloadErrorOf('webhook', {});
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.statusCode).toBe(400);
    expect(error.message).toBe('Invalid webhook payload');
    expect(error.sender).toBe('webhook');
  });
});

describe.each(INGESTION_SENDERS)('%s: bodies that are not objects', (sender) => {
  it.each([undefined, null, 0, 'text', true, [], [{}]])('rejects %j', (body) => {
    const error = payloadErrorOf(sender, body, { 'x-github-event': 'push' });
    expectFieldErrors(error, 'body');
  });

  it('rejects an empty object', () => {
    expectFieldErrors(payloadErrorOf(sender, {}, sender === 'codehost-a' ? {} : { 'x-github-event': 'push' }));
  });
});

describe('missing required fields and wrong types, per sender', () => {
  const fixture = (sender: IngestionSender, file: string) => loadFixture(sender, file).body;

  it('code host A: an action or the X-GitHub-Event header, and a repository where the event is about one', () => {
    const push = fixture('codehost-a', 'push.0.json');
    expectFieldErrors(payloadErrorOf('codehost-a', push), 'action');
    expectFieldErrors(payloadErrorOf('codehost-a', { ...(push as object), action: 5 }), 'action');
    const run = fixture('codehost-a', 'workflow_run.requested.3.json');
    const headers = { 'x-github-event': 'workflow_run' };
    expectFieldErrors(payloadErrorOf('codehost-a', withFields(run, { repository: undefined }), headers), 'repository');
    expectFieldErrors(
      payloadErrorOf('codehost-a', withFields(run, { repository: 'octo/repo' }), headers),
      'repository',
    );
    expectFieldErrors(
      payloadErrorOf('codehost-a', withFields(run, { 'workflow_run.id': '1' }), headers),
      'workflow_run.id',
    );
    expectFieldErrors(payloadErrorOf('codehost-a', withFields(run, { workflow_run: [] }), headers), 'workflow_run');
    const deployment = fixture('codehost-a', 'deployment_status.created.0.json');
    expectFieldErrors(
      payloadErrorOf('codehost-a', withFields(deployment, { 'deployment_status.state': undefined }), {
        'x-github-event': 'deployment_status',
      }),
      'deployment_status.state',
    );
  });

  it('code host B: object_kind, and project except on a Job Hook, which needs project_id', () => {
    const push = fixture('codehost-b', 'push.json');
    expectFieldErrors(payloadErrorOf('codehost-b', withFields(push, { object_kind: undefined })), 'object_kind');
    expectFieldErrors(payloadErrorOf('codehost-b', withFields(push, { project: undefined })), 'project');
    expectFieldErrors(payloadErrorOf('codehost-b', withFields(push, { project: 'mike/diaspora' })), 'project');
    const job = fixture('codehost-b', 'job.json');
    expectFieldErrors(payloadErrorOf('codehost-b', withFields(job, { project_id: undefined })), 'project_id');
    expectFieldErrors(payloadErrorOf('codehost-b', withFields(job, { build_status: 3 })), 'build_status');
    const pipeline = fixture('codehost-b', 'pipeline.json');
    expectFieldErrors(
      payloadErrorOf('codehost-b', withFields(pipeline, { 'object_attributes.status': undefined, builds: {} })),
      'object_attributes.status',
      'builds',
    );
  });

  it('code host C: the event envelope, its workflow and its job', () => {
    const workflow = fixture('codehost-c', 'docs-01-workflow-completed-github-oauth-bitbucket-cloud.json');
    expectFieldErrors(payloadErrorOf('codehost-c', withFields(workflow, { id: undefined, type: 7 })), 'id', 'type');
    expectFieldErrors(payloadErrorOf('codehost-c', withFields(workflow, { workflow: undefined })), 'workflow');
    const job = fixture('codehost-c', 'docs-02-job-completed-github-oauth-bitbucket-cloud.json');
    expectFieldErrors(payloadErrorOf('codehost-c', withFields(job, { 'job.status': false })), 'job.status');
  });

  it('orchestrator: type, reason, message (or note) and the object (involvedObject or regarding)', () => {
    const event = fixture('orchestrator', 'event-09-Normal-Killing-Pod.json');
    expectFieldErrors(
      payloadErrorOf('orchestrator', withFields(event, { type: undefined, reason: 1 })),
      'type',
      'reason',
    );
    expectFieldErrors(
      payloadErrorOf('orchestrator', withFields(event, { involvedObject: undefined })),
      'involvedObject',
    );
    expectFieldErrors(payloadErrorOf('orchestrator', withFields(event, { message: undefined })), 'message');
    expectFieldErrors(
      payloadErrorOf('orchestrator', withFields(event, { 'involvedObject.kind': 9 })),
      'involvedObject.kind',
    );
    const modern = fixture('orchestrator', 'events.k8s.io.v1.Event.json');
    expectFieldErrors(
      payloadErrorOf('orchestrator', withFields(modern, { 'regarding.name': undefined })),
      'regarding.name',
    );
  });

  it('paging: v2 messages with event and incident, or a v3 event with its data', () => {
    expectFieldErrors(payloadErrorOf('paging', { messages: [] }), 'messages');
    expectFieldErrors(payloadErrorOf('paging', { messages: 'x' }), 'messages');
    const v2 = fixture('paging', 'v2-01-incident_trigger.json');
    expectFieldErrors(
      payloadErrorOf('paging', withFields(v2, { 'messages.0.incident': undefined })),
      'messages.0.incident',
    );
    expectFieldErrors(payloadErrorOf('paging', withFields(v2, { 'messages.0.event': null })), 'messages.0.event');
    const v3 = fixture('paging', 'triggered_v3.json');
    expectFieldErrors(payloadErrorOf('paging', withFields(v3, { 'event.data': undefined })), 'event.data');
    expectFieldErrors(payloadErrorOf('paging', withFields(v3, { 'event.data.id': undefined })), 'event.data.id');
    expectFieldErrors(payloadErrorOf('paging', withFields(v3, { 'event.event_type': [] })), 'event.event_type');
  });

  it('metrics alerts: receiver, status, and alerts each with a status and string labels', () => {
    const firing = fixture('metrics-alerts', 'captured.json');
    expectFieldErrors(payloadErrorOf('metrics-alerts', withFields(firing, { receiver: undefined })), 'receiver');
    expectFieldErrors(payloadErrorOf('metrics-alerts', withFields(firing, { status: 'pending' })), 'status');
    expectFieldErrors(payloadErrorOf('metrics-alerts', withFields(firing, { alerts: [] })), 'alerts');
    expectFieldErrors(
      payloadErrorOf('metrics-alerts', withFields(firing, { 'alerts.0.labels': 'x' })),
      'alerts.0.labels',
    );
    expectFieldErrors(
      payloadErrorOf(
        'metrics-alerts',
        withFields(firing, { 'alerts.0.labels.severity': 2, 'alerts.0.status': undefined }),
      ),
      'alerts.0.labels.severity',
      'alerts.0.status',
    );
  });

  it('monitoring: id, title, a type (or event_type), and priority normal or low', () => {
    const template = fixture('monitoring', 'default-payload-template.json');
    expectFieldErrors(payloadErrorOf('monitoring', withFields(template, { id: undefined, title: '' })), 'id', 'title');
    expectFieldErrors(payloadErrorOf('monitoring', withFields(template, { event_type: undefined })), 'type');
    expectFieldErrors(payloadErrorOf('monitoring', withFields(template, { priority: 'urgent' })), 'priority');
  });

  it('generic webhook: source, title, severity and status, valid metadata and timestamp', () => {
    const valid = { source: 's', title: 't', severity: 'low', status: 'firing' };
    expectFieldErrors(payloadErrorOf('webhook', {}), 'source', 'title', 'severity', 'status');
    expectFieldErrors(payloadErrorOf('webhook', { ...valid, severity: 'fatal', status: 'open' }), 'severity', 'status');
    expectFieldErrors(payloadErrorOf('webhook', { ...valid, timestamp: 'yesterday' }), 'timestamp');
    expectFieldErrors(payloadErrorOf('webhook', { ...valid, metadata: [] }), 'metadata');
    expectFieldErrors(payloadErrorOf('webhook', { ...valid, title: '   ' }), 'title');
  });
});

describe('date-times, per sender: present and not null, they must read as one', () => {
  const INVALID = 'Invalid ISO 8601 date-time';
  const eventOf = (sender: IngestionSender, file: string, fields: Record<string, unknown>) => {
    const fixture = loadFixture(sender, file);
    const [event] = normalizers[sender](withFields(fixture.body, fields), fixture.headers, RECEIVED_AT);
    return event;
  };

  it.each([
    ['codehost-a', 'workflow_run.completed.0.json', 'workflow_run.updated_at'],
    ['codehost-a', 'workflow_run.requested.3.json', 'workflow_run.run_started_at'],
    ['codehost-a', 'check_run.completed.1.json', 'check_run.completed_at'],
    ['codehost-a', 'deployment_status.created.0.json', 'deployment_status.updated_at'],
    ['codehost-a', 'deployment_status.created.0.json', 'deployment.created_at'],
    ['codehost-a', 'push.0.json', 'head_commit.timestamp'],
    ['codehost-a', 'pull_request.opened.0.json', 'pull_request.updated_at'],
    ['codehost-b', 'pipeline.json', 'object_attributes.created_at'],
    ['codehost-b', 'pipeline.json', 'builds.2.finished_at'],
    ['codehost-b', 'job.json', 'build_started_at'],
    ['codehost-b', 'job.json', 'commit.finished_at'],
    ['codehost-b', 'deployment.json', 'status_changed_at'],
    ['codehost-b', 'push.json', 'commits.0.timestamp'],
    ['codehost-b', 'merge_request.json', 'object_attributes.updated_at'],
    ['codehost-c', 'docs-01-workflow-completed-github-oauth-bitbucket-cloud.json', 'happened_at'],
    ['codehost-c', 'docs-02-job-completed-github-oauth-bitbucket-cloud.json', 'job.stopped_at'],
    ['orchestrator', 'events.k8s.io.v1.Event.json', 'series.lastObservedTime'],
    ['orchestrator', 'events.k8s.io.v1.Event.json', 'deprecatedLastTimestamp'],
    ['orchestrator', 'core.v1.Event.json', 'metadata.creationTimestamp'],
    ['paging', 'v2-01-incident_trigger.json', 'messages.0.created_on'],
    ['paging', 'v3-02-webhook_payload.json', 'event.data.created_at'],
    ['metrics-alerts', 'captured-resolved.json', 'alerts.0.endsAt'],
    ['monitoring', 'default-payload-template.json', 'date'],
    ['monitoring', 'default-payload-template.json', 'last_updated'],
  ] as const)('%s/%s: %s', (sender, file, field) => {
    const fixture = loadFixture(sender, file);
    for (const value of ['yesterday', '2024-13-45T99:99:00Z', '']) {
      const error = payloadErrorOf(sender, withFields(fixture.body, { [field]: value }), fixture.headers);
      expect(error.errors).toEqual([`${field}: ${INVALID}`]);
    }
  });

  it('reads null and a field left out as absent: the fallback applies', () => {
    for (const startsAt of [null, undefined]) {
      const alert = eventOf('metrics-alerts', 'captured.json', { 'alerts.0.startsAt': startsAt });
      expect(alert?.signal.triggeredAt).toBe(RECEIVED_AT.toISOString());
    }
    const event = eventOf('orchestrator', 'event-09-Normal-Killing-Pod.json', {
      firstTimestamp: null,
      lastTimestamp: null,
      'metadata.creationTimestamp': null,
    });
    expect(event?.signal.triggeredAt).toBe(RECEIVED_AT.toISOString());
  });

  it("reads Go's zero time as no time, as Alertmanager writes the endsAt of a firing alert", () => {
    const alert = eventOf('metrics-alerts', 'captured-resolved.json', { 'alerts.0.endsAt': '0001-01-01T00:00:00Z' });
    expect(alert?.signal.metadata).not.toHaveProperty('endsAt');
  });

  it('reads the monitoring epochs as text or number, and an unfilled template variable as no time', () => {
    const template = 'default-payload-template.json';
    expect(eventOf('monitoring', template, {})?.signal.triggeredAt).toBe(RECEIVED_AT.toISOString());
    for (const date of ['1406662672000', 1406662672000, 1406662672]) {
      expect(eventOf('monitoring', template, { date })?.signal.triggeredAt).toBe('2014-07-29T19:37:52.000Z');
    }
    expect(
      payloadErrorOf('monitoring', withFields(loadFixture('monitoring', template).body, { date: 1e20 })).errors,
    ).toEqual([`date: ${INVALID}`]);
  });
});

/** Every object path of a payload down to `depth`, for breaking one field at a time. */
const pathsOf = (value: unknown, depth: number, prefix = ''): string[] => {
  if (depth === 0 || typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return [path, ...pathsOf(child, depth - 1, path)];
  });
};

describe('one broken field at a time in every real payload', () => {
  const replacements = [undefined, null, 7, 'x', true, [], {}];

  it.each(allFixtureFiles())(
    '$sender/$file gives events or a PayloadError, never another error',
    ({ sender, file }) => {
      const fixture = loadFixture(sender, file);
      let rejected = 0;
      // Collected and asserted once: an `expect` per fuzzed event was half the file's CPU (docs/testing.md).
      const problems: string[] = [];
      for (const path of pathsOf(fixture.body, 4)) {
        for (const replacement of replacements) {
          const variant = `${path} = ${JSON.stringify(replacement)}`;
          try {
            const events = normalizers[sender](
              withFields(fixture.body, { [path]: replacement }),
              fixture.headers,
              RECEIVED_AT,
            );
            for (const event of events)
              problems.push(...wellFormednessProblems(event, sender).map((problem) => `${variant}: ${problem}`));
          } catch (error) {
            if (!(error instanceof PayloadError)) throw new Error(`${variant}: ${String(error)}`);
            problems.push(...fieldMessageProblems(error).map((problem) => `${variant}: ${problem}`));
            rejected += 1;
          }
        }
      }
      expect(problems).toEqual([]);
      expect(rejected).toBeGreaterThan(0);
    },
  );
});

describe('words that name Object.prototype members', () => {
  const words = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];

  it.each(words)('%s is an unknown event, kind or status, not a crash', (word) => {
    const [github] = normalizers['codehost-a']({ action: 'x' }, { 'x-github-event': word }, RECEIVED_AT);
    expect(github).toMatchObject({ action: 'record', signal: { type: word } });
    const [hook] = normalizers['codehost-b'](
      { object_kind: word, project: { path_with_namespace: 'g/p' } },
      {},
      RECEIVED_AT,
    );
    expect(hook).toMatchObject({ action: 'record', signal: { type: word } });
    const pipeline = withFields(loadFixture('codehost-b', 'pipeline.json').body, {
      'object_attributes.status': word,
      'builds.0.status': word,
    });
    expect(normalizers['codehost-b'](pipeline, {}, RECEIVED_AT)[0]?.pipelineRun?.status).toBe('in_progress');
    const alert = withFields(loadFixture('metrics-alerts', 'captured.json').body, { 'alerts.0.labels.severity': word });
    expect(normalizers['metrics-alerts'](alert, {}, RECEIVED_AT)[0]?.signal.severity).toBe('MEDIUM');
  });
});
