import { describe, expect, it } from 'vitest';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import type { IngestionSender } from '#lib/ingestion/senders/index.ts';
import { RECEIVED_AT, expectWellFormed, loadFixture, withFields, normalizers } from './support.ts';

/** The variants the real payloads do not show (a failed run, a warning, a recovery), made from those payloads. */
const one = (sender: IngestionSender, body: unknown, headers: Record<string, string> = {}): NormalizedEvent => {
  const events = normalizers[sender](body, headers, RECEIVED_AT);
  expect(events).toHaveLength(1);
  const [event] = events;
  if (!event) throw new Error('no event');
  expectWellFormed(event, sender);
  return event;
};

describe('code host A', () => {
  const github = (event: string) => ({ 'x-github-event': event });
  const run = loadFixture('codehost-a', 'workflow_run.requested.3.json').body;
  const failedRun = withFields(run, {
    action: 'completed',
    'workflow_run.status': 'completed',
    'workflow_run.conclusion': 'failure',
    'workflow_run.updated_at': '2020-10-05T16:40:49Z',
  });

  it('makes a failed workflow run on the default branch a HIGH problem, with a finished run', () => {
    const event = one('codehost-a', failedRun, github('workflow_run'));
    expect(event).toMatchObject({
      action: 'trigger',
      fingerprint: 'octo-org/octo-repo|master|289782451',
      signal: {
        type: 'pipeline_failure',
        severity: 'HIGH',
        name: 'Workflow "test" failed on octo-org/octo-repo@master',
      },
      pipelineRun: {
        status: 'failure',
        startedAt: '2020-10-05T16:33:49.000Z',
        finishedAt: '2020-10-05T16:40:49.000Z',
        durationSeconds: 420,
        updatedAt: '2020-10-05T16:40:49.000Z',
      },
    });
    const onBranch = one(
      'codehost-a',
      withFields(failedRun, { 'workflow_run.head_branch': 'feature' }),
      github('workflow_run'),
    );
    expect(onBranch.signal.severity).toBe('MEDIUM');
  });

  it('records successful, cancelled and action-required runs, keeping the failure fingerprint', () => {
    for (const conclusion of ['success', 'cancelled', 'skipped', 'action_required', 'neutral']) {
      const event = one(
        'codehost-a',
        withFields(failedRun, { 'workflow_run.conclusion': conclusion }),
        github('workflow_run'),
      );
      expect(event).toMatchObject({ action: 'record', signal: { type: 'pipeline', severity: 'LOW' } });
      expect(event.fingerprint).toBe('octo-org/octo-repo|master|289782451');
    }
    for (const conclusion of ['timed_out', 'startup_failure']) {
      expect(
        one('codehost-a', withFields(failedRun, { 'workflow_run.conclusion': conclusion }), github('workflow_run'))
          .action,
      ).toBe('trigger');
    }
  });

  it('infers the event from the body when the header is missing but an action is present', () => {
    expect(one('codehost-a', failedRun).signal.type).toBe('pipeline_failure');
    const deployment = loadFixture('codehost-a', 'deployment_status.created.0.json').body;
    expect(one('codehost-a', deployment).change?.changeKey).toBe('codehost_a-145988746');
  });

  it('adds a completed workflow job to its run, and makes a failed one a problem', () => {
    const job = {
      action: 'completed',
      repository: { full_name: 'octo/app', default_branch: 'main' },
      sender: { login: 'octocat' },
      workflow_job: {
        id: 2,
        run_id: 77,
        name: 'test',
        workflow_name: 'CI',
        status: 'completed',
        conclusion: 'failure',
        head_branch: 'main',
        head_sha: 'abc',
        started_at: '2024-05-01T10:00:00Z',
        completed_at: '2024-05-01T10:01:30Z',
      },
    };
    expect(one('codehost-a', job, github('workflow_job'))).toMatchObject({
      action: 'trigger',
      fingerprint: 'octo/app|main|77|test',
      signal: { type: 'job_failure', severity: 'HIGH' },
      pipelineRun: {
        runKey: 'codehost_a-77',
        scope: 'job',
        jobs: [{ name: 'test', status: 'failure', durationSeconds: 90 }],
      },
    });
    const queued = withFields(job, { 'workflow_job.status': 'queued', 'workflow_job.conclusion': null });
    expect(one('codehost-a', queued, github('workflow_job'))).toMatchObject({
      action: 'record',
      pipelineRun: { jobs: [] },
    });
  });

  it('makes a failed deployment a problem, HIGH in production', () => {
    const deployment = loadFixture('codehost-a', 'deployment_status.created.0.json').body;
    const failed = withFields(deployment, {
      'deployment_status.state': 'failure',
      'deployment_status.updated_at': '2019-05-15T15:25:00Z',
    });
    expect(one('codehost-a', failed, github('deployment_status'))).toMatchObject({
      action: 'trigger',
      fingerprint: 'Codertocat/Hello-World|deployment|145988746',
      signal: { type: 'deployment_failure', severity: 'HIGH' },
      change: { status: 'FAILED', updatedAt: '2019-05-15T15:25:00.000Z' },
    });
    const staging = withFields(failed, {
      'deployment_status.environment': 'staging',
      'deployment_status.state': 'error',
    });
    expect(one('codehost-a', staging, github('deployment_status'))).toMatchObject({
      signal: { severity: 'MEDIUM' },
      change: { status: 'FAILED', environment: 'staging' },
    });
  });

  it('makes a failing commit status a problem', () => {
    const status = {
      sha: '6113728f27ae82c7b1a177c8d03f9e96e0adf246',
      state: 'failure',
      context: 'ci/jenkins',
      branches: [{ name: 'master' }],
      repository: { full_name: 'Codertocat/Hello-World', default_branch: 'master' },
    };
    expect(one('codehost-a', status, github('status'))).toMatchObject({
      action: 'trigger',
      fingerprint: 'Codertocat/Hello-World|status|ci/jenkins|6113728f27ae82c7b1a177c8d03f9e96e0adf246',
      signal: { type: 'commit_status_failure', severity: 'HIGH' },
    });
    expect(one('codehost-a', { ...status, state: 'pending' }, github('status')).action).toBe('record');
  });
});

describe('code host B', () => {
  const pipeline = loadFixture('codehost-b', 'pipeline.json').body;
  const job = loadFixture('codehost-b', 'job.json').body;

  it('makes a failed pipeline a problem, listing its failed jobs', () => {
    const failed = withFields(pipeline, { 'object_attributes.status': 'failed', 'builds.1.status': 'failed' });
    expect(one('codehost-b', failed, { 'x-gitlab-event': 'Pipeline Hook' })).toMatchObject({
      action: 'trigger',
      fingerprint: 'gitlab-org/gitlab-test|master|31',
      signal: {
        type: 'pipeline_failure',
        severity: 'HIGH',
        metadata: { failedJobs: ['test-image'], event: 'Pipeline Hook' },
      },
      pipelineRun: { status: 'failure' },
    });
  });

  it('leaves the not-yet-run jobs of a running pipeline out, to be added by their Job Hooks', () => {
    const running = withFields(pipeline, {
      'object_attributes.status': 'running',
      'object_attributes.finished_at': null,
    });
    const event = one('codehost-b', running);
    expect(event.pipelineRun).toMatchObject({ status: 'in_progress', finishedAt: null });
    expect(event.pipelineRun?.jobs.map((entry) => entry.name)).toEqual([
      'production',
      'test-image',
      'test-build',
      'build-image',
    ]);
  });

  it('makes a failed job a problem unless it is allowed to fail', () => {
    const failed = withFields(job, { build_status: 'failed', 'commit.status': 'failed' });
    expect(one('codehost-b', failed)).toMatchObject({
      action: 'trigger',
      signal: { type: 'job_failure', severity: 'HIGH', metadata: { failureReason: 'unknown_failure' } },
      pipelineRun: { jobs: [{ name: 'auto_deploy:start', status: 'failure' }] },
    });
    expect(one('codehost-b', withFields(failed, { build_allow_failure: true })).action).toBe('record');
  });

  it('makes a failed deployment a problem and a change', () => {
    const deployment = loadFixture('codehost-b', 'deployment.json').body;
    expect(one('codehost-b', withFields(deployment, { status: 'failed', environment: 'production' }))).toMatchObject({
      action: 'trigger',
      signal: { type: 'deployment_failure', severity: 'HIGH' },
      change: { status: 'FAILED', environment: 'production' },
    });
    expect(one('codehost-b', withFields(deployment, { status: 'running' })).change?.status).toBe('IN_PROGRESS');
  });

  it('records other hooks', () => {
    const issue = {
      object_kind: 'issue',
      project: { path_with_namespace: 'g/p' },
      object_attributes: { id: 3, action: 'open' },
    };
    expect(one('codehost-b', issue, { 'x-gitlab-event': 'Issue Hook' })).toMatchObject({
      action: 'record',
      fingerprint: 'g/p|issue|3|open',
      signal: { name: 'Issue Hook in g/p', type: 'issue' },
    });
  });
});

describe('code host C', () => {
  const workflow = loadFixture('codehost-c', 'docs-01-workflow-completed-github-oauth-bitbucket-cloud.json').body;
  const job = loadFixture('codehost-c', 'docs-02-job-completed-github-oauth-bitbucket-cloud.json').body;

  it('makes a failed workflow a problem (HIGH on main) and a cancelled one a record', () => {
    expect(one('codehost-c', withFields(workflow, { 'workflow.status': 'failed' }))).toMatchObject({
      action: 'trigger',
      signal: { type: 'pipeline_failure', severity: 'HIGH' },
      pipelineRun: { status: 'failure', finishedAt: '2021-09-01T22:49:34.170Z' },
    });
    expect(one('codehost-c', withFields(workflow, { 'workflow.status': 'canceled' }))).toMatchObject({
      action: 'record',
      pipelineRun: { status: 'cancelled' },
    });
  });

  it('makes a failed job a problem', () => {
    expect(
      one('codehost-c', withFields(job, { 'job.status': 'infrastructure_fail', 'pipeline.vcs.branch': 'feature' })),
    ).toMatchObject({
      action: 'trigger',
      signal: { type: 'job_failure', severity: 'MEDIUM' },
      pipelineRun: { jobs: [{ name: 'test', status: 'failure' }] },
    });
  });

  it('records event types it does not know', () => {
    const other = { id: 'e1', type: 'ping', happened_at: '2024-01-01T00:00:00Z', project: { slug: 'gh/o/r' } };
    expect(one('codehost-c', other)).toMatchObject({ action: 'record', fingerprint: 'gh/o/r|ping|e1' });
  });
});

describe('orchestrator', () => {
  const killing = loadFixture('orchestrator', 'event-09-Normal-Killing-Pod.json').body;

  it('makes a Warning a problem, HIGH for lost work, and merges its recurrences', () => {
    const backOff = withFields(killing, { type: 'Warning', reason: 'BackOff', count: 5 });
    expect(one('orchestrator', backOff)).toMatchObject({
      action: 'trigger',
      fingerprint: 'Pod|default|px-7df978b9bf-jm22q|BackOff',
      signal: { type: 'k8s_warning', severity: 'MEDIUM', metadata: { count: 5 } },
    });
    const again = withFields(backOff, { count: 6, lastTimestamp: '2021-05-19T09:50:00Z', message: 'Back-off again' });
    expect(one('orchestrator', again).fingerprint).toBe('Pod|default|px-7df978b9bf-jm22q|BackOff');
    expect(one('orchestrator', withFields(killing, { type: 'Warning', reason: 'OOMKilling' })).signal.severity).toBe(
      'HIGH',
    );
  });

  it('takes a cluster-scoped object without a namespace', () => {
    const node = {
      type: 'Warning',
      reason: 'NodeNotReady',
      message: 'Node kind-worker status is now: NodeNotReady',
      involvedObject: { kind: 'Node', name: 'kind-worker' },
    };
    expect(one('orchestrator', node)).toMatchObject({
      fingerprint: 'Node||kind-worker|NodeNotReady',
      signal: { name: 'NodeNotReady: Node kind-worker', severity: 'HIGH', triggeredAt: RECEIVED_AT.toISOString() },
    });
  });
});

describe('paging', () => {
  const v3 = loadFixture('paging', 'triggered_v3.json').body;

  it('resolves on a v3 resolve, with the trigger identity', () => {
    const resolved = withFields(v3, { 'event.event_type': 'incident.resolved', 'event.data.status': 'resolved' });
    const trigger = one('paging', v3);
    const resolve = one('paging', resolved);
    expect(resolve.action).toBe('resolve');
    expect([resolve.signal.type, resolve.fingerprint]).toEqual([trigger.signal.type, trigger.fingerprint]);
  });

  it('merges acknowledgements into the open incident and records events after resolution', () => {
    expect(
      one(
        'paging',
        withFields(v3, { 'event.event_type': 'incident.acknowledged', 'event.data.status': 'acknowledged' }),
      ).action,
    ).toBe('trigger');
    const late = one(
      'paging',
      withFields(v3, { 'event.event_type': 'incident.reassigned', 'event.data.status': 'resolved' }),
    );
    expect(late).toMatchObject({ action: 'record', signal: { type: 'incident_update', severity: 'LOW' } });
  });

  it('takes the priority over the urgency', () => {
    const severity = (fields: Record<string, unknown>) => one('paging', withFields(v3, fields)).signal.severity;
    expect(severity({ 'event.data.urgency': 'low' })).toBe('LOW');
    expect(severity({ 'event.data.urgency': 'low', 'event.data.priority': { summary: 'P2' } })).toBe('HIGH');
    expect(severity({ 'event.data.urgency': 'high', 'event.data.priority': { summary: 'P3' } })).toBe('MEDIUM');
  });

  it('gives one event per v2 message', () => {
    const trigger = loadFixture('paging', 'v2-01-incident_trigger.json').body as { messages: unknown[] };
    const resolve = loadFixture('paging', 'v2-03-incident_resolve.json').body as { messages: unknown[] };
    const events = normalizers.paging({ messages: [...trigger.messages, ...resolve.messages] }, {}, RECEIVED_AT);
    expect(events.map((event) => [event.action, event.fingerprint])).toEqual([
      ['trigger', 'PRORDTY'],
      ['resolve', 'PRORDTY'],
    ]);
  });

  it('records v3 events about other resources, naming their incident', () => {
    const note = {
      event: {
        id: 'e2',
        event_type: 'incident.annotated',
        resource_type: 'incident',
        occurred_at: '2024-01-01T00:00:00Z',
        data: { type: 'incident_note', id: 'N1', incident: { id: 'PGR0VU2', summary: 'A little bump in the road' } },
      },
    };
    expect(one('paging', note)).toMatchObject({
      action: 'record',
      fingerprint: 'incident.annotated|PGR0VU2',
      signal: { type: 'incident.annotated', metadata: { incidentId: 'PGR0VU2' } },
    });
  });
});

describe('monitoring', () => {
  const template = loadFixture('monitoring', 'default-payload-template.json').raw;
  /** The default template with the documented example values (monitoring/README.md) substituted. */
  const substituted = (title: string, extra: Record<string, unknown> = {}) => ({
    ...(JSON.parse(
      template
        .replace('$EVENT_MSG', 'Memory usage above 90% on host:web-1')
        .replace('$LAST_UPDATED', '1406662672000')
        .replace('$EVENT_TYPE', 'metric_alert_monitor')
        .replace('$EVENT_TITLE', title)
        .replace('$DATE', '1406662672000')
        .replace('$ORG_ID', '11')
        .replace('$ORG_NAME', 'Acme')
        .replace('$ID', '1234'),
    ) as Record<string, unknown>),
    ...extra,
  });

  it('triggers on [Triggered] and resolves on [Recovered], with one identity', () => {
    const triggered = one('monitoring', substituted('[Triggered] [Memory Alert]'));
    const recovered = one('monitoring', substituted('[Recovered] [Memory Alert]'));
    expect(triggered).toMatchObject({
      action: 'trigger',
      fingerprint: 'title|[Memory Alert]',
      signal: {
        name: '[Memory Alert]',
        severity: 'MEDIUM',
        triggeredAt: '2014-07-29T19:37:52.000Z',
        metadata: { transition: 'Triggered', eventType: 'metric_alert_monitor', organization: 'Acme' },
      },
    });
    expect(recovered.action).toBe('resolve');
    expect([recovered.signal.type, recovered.fingerprint]).toEqual([triggered.signal.type, triggered.fingerprint]);
  });

  it('reads partner-template fields: transition, aggregation key, priorities, tags', () => {
    const event = one(
      'monitoring',
      substituted('[P1] [Triggered] [Memory Alert]', {
        alert_transition: 'Triggered',
        aggreg_key: '9bd4ac313a4d1e8fae2482df7b77628',
        alert_priority: 'P1',
        priority: 'normal',
        tags: 'env:prod, service:checkout',
        link: 'https://app.example.com/event/1234',
      }),
    );
    expect(event).toMatchObject({
      fingerprint: 'aggreg_key|9bd4ac313a4d1e8fae2482df7b77628',
      signal: { severity: 'HIGH', serviceId: 'checkout', metadata: { tags: ['env:prod', 'service:checkout'] } },
    });
    expect(one('monitoring', substituted('[Warn] [Memory Alert]', { priority: 'low' })).signal.severity).toBe('MEDIUM');
    expect(one('monitoring', substituted('Deploy finished', { priority: 'low' })).signal.severity).toBe('LOW');
    expect(
      one('monitoring', substituted('[Recovered] x', { alert_transition: 'Recovered', alert_id: 42 })).fingerprint,
    ).toBe('alert|42|');
  });
});

describe('generic webhook', () => {
  const payload = {
    source: 'nagios',
    title: 'Disk full on db-1',
    severity: 'critical',
    status: 'firing',
    message: '98% used',
    metadata: { host: 'db-1', service: 'db' },
    timestamp: '2024-03-01T12:00:00+01:00',
  };

  it('maps the canonical payload, keeping the sender and its severity in metadata', () => {
    expect(one('webhook', payload)).toEqual({
      signal: {
        name: 'Disk full on db-1',
        source: 'webhook',
        type: 'alert',
        severity: 'HIGH',
        serviceId: 'db',
        metadata: { host: 'db-1', service: 'db', origin: 'nagios', message: '98% used', originalSeverity: 'critical' },
        triggeredAt: '2024-03-01T11:00:00.000Z',
      },
      fingerprint: 'nagios|Disk full on db-1',
      action: 'trigger',
    });
  });

  it('maps every severity and resolves with the firing identity', () => {
    const severities = ['critical', 'high', 'medium', 'low', 'info'].map(
      (severity) => one('webhook', { ...payload, severity }).signal.severity,
    );
    expect(severities).toEqual(['HIGH', 'HIGH', 'MEDIUM', 'LOW', 'LOW']);
    const resolved = one('webhook', { ...payload, status: 'resolved', timestamp: undefined });
    expect(resolved).toMatchObject({ action: 'resolve', fingerprint: 'nagios|Disk full on db-1' });
    expect(resolved.signal.triggeredAt).toBe(RECEIVED_AT.toISOString());
  });

  it('refines the identity with metadata.fingerprint, unambiguously', () => {
    const a = one('webhook', { ...payload, metadata: { fingerprint: 'db-1' } });
    const b = one('webhook', { ...payload, metadata: { fingerprint: 'db-2' } });
    expect(a.fingerprint).toBe('nagios|Disk full on db-1|db-1');
    expect(a.fingerprint).not.toBe(b.fingerprint);
    const tricky = one('webhook', { ...payload, source: 'nagios|Disk full on db-1', title: 'db-1' });
    expect(tricky.fingerprint).not.toBe(a.fingerprint);
  });
});
