import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import type { IngestionSender } from '#lib/ingestion/senders/index.ts';
import {
  FIXTURES_DIR,
  RECEIVED_AT,
  allFixtureFiles,
  expectWellFormed,
  headersFor,
  loadFixture,
  withFields,
  normalizers,
} from './support.ts';

const normalize = (sender: IngestionSender, body: unknown, headers: Record<string, string> = {}) =>
  normalizers[sender](body, headers, RECEIVED_AT);

const only = (events: NormalizedEvent[]): NormalizedEvent => {
  expect(events).toHaveLength(1);
  return events[0] as NormalizedEvent;
};

/** What each real payload must give; every fixture file has an entry. */
const EXPECTED: Record<string, (events: NormalizedEvent[]) => void> = {
  'codehost-a/check_run.completed.1.json': (events) => {
    const event = only(events);
    expect(event).toMatchObject({
      action: 'trigger',
      fingerprint: 'Codertocat/Hello-World|check_run|Octocoders-linter|ec26c3e57ca3a959ca5aad62de7213c562f8c821',
      signal: {
        name: 'Check "Octocoders-linter" failed on Codertocat/Hello-World@changes',
        type: 'check_run_failure',
        // A pull request's branch, not the default branch.
        severity: 'MEDIUM',
        triggeredAt: '2019-05-15T15:21:12.000Z',
        metadata: {
          repository: 'Codertocat/Hello-World',
          branch: 'changes',
          conclusion: 'failure',
          app: 'github-actions',
        },
      },
    });
    expect(event.pipelineRun).toBeUndefined();
  },
  'codehost-a/deployment_status.created.0.json': (events) => {
    const event = only(events);
    expect(event).toMatchObject({
      action: 'record',
      fingerprint: 'Codertocat/Hello-World|deployment|145988746',
      signal: {
        type: 'deployment',
        severity: 'LOW',
        name: 'Deployment of Codertocat/Hello-World@master to production: success',
      },
    });
    expect(event.change).toEqual({
      changeKey: 'codehost_a-145988746',
      provider: 'codehost_a',
      providerDeploymentId: '145988746',
      summary: 'Deploy Codertocat/Hello-World@master to production',
      status: 'SUCCEEDED',
      environment: 'production',
      repository: 'Codertocat/Hello-World',
      commitSha: 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e',
      deployer: 'Codertocat',
      updatedAt: '2019-05-15T15:20:55.000Z',
      occurredAt: '2019-05-15T15:20:53.000Z',
    });
  },
  'codehost-a/ping.0.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'record',
      fingerprint: 'Octocoders/Hello-World|ping|109948940',
      signal: {
        type: 'ping',
        severity: 'LOW',
        triggeredAt: RECEIVED_AT.toISOString(),
        metadata: { hookId: 109948940, zen: 'Anything added dilutes everything else.' },
      },
    });
  },
  'codehost-a/pull_request.opened.0.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'record',
      fingerprint: 'Codertocat/Hello-World|pull_request|2',
      signal: {
        name: 'Pull request #2 opened in Codertocat/Hello-World: Update the README with new information.',
        type: 'pull_request',
        metadata: {
          headBranch: 'changes',
          baseBranch: 'master',
          url: 'https://github.com/Codertocat/Hello-World/pull/2',
        },
      },
    });
  },
  'codehost-a/push.0.json': (events) => {
    const event = only(events);
    expect(event).toMatchObject({
      action: 'record',
      fingerprint: 'Codertocat/Hello-World|push|refs/tags/simple-tag|6113728f27ae82c7b1a177c8d03f9e96e0adf246',
      signal: {
        type: 'push',
        severity: 'LOW',
        triggeredAt: '2019-05-15T15:20:41.000Z',
        metadata: { ref: 'refs/tags/simple-tag', commitCount: 0, headCommitMessage: 'Adding a .gitignore file' },
      },
    });
    expect(event.signal.metadata).not.toHaveProperty('action');
  },
  'codehost-a/workflow_run.completed.0.json': (events) => {
    const event = only(events);
    // The example's action says completed, but its run is still queued: the run's own status decides.
    expect(event).toMatchObject({
      action: 'record',
      fingerprint: 'Codertocat/Hello-World|main|1589141559',
      signal: { type: 'pipeline', severity: 'LOW', metadata: { status: 'queued', triggerEvent: 'workflow_dispatch' } },
    });
    expect(event.pipelineRun).toMatchObject({
      runKey: 'codehost_a-1589141559',
      provider: 'codehost_a',
      scope: 'run',
      repository: 'Codertocat/Hello-World',
      branch: 'main',
      commitSha: '5779607b49aab1200488439f02372c57b4f75444',
      commitMessage: 'Update milestone-created.yml',
      // The example has neither `actor` nor `triggering_actor`: the sender.
      triggeredBy: 'Codertocat',
      status: 'in_progress',
      startedAt: '2021-12-16T19:37:22.000Z',
      finishedAt: null,
      durationSeconds: null,
      jobs: [],
      updatedAt: '2021-12-16T19:37:22.000Z',
    });
  },
  'codehost-a/workflow_run.requested.3.json': (events) => {
    const event = only(events);
    expect(event).toMatchObject({ action: 'record', fingerprint: 'octo-org/octo-repo|master|289782451' });
    expect(event.pipelineRun).toMatchObject({
      runKey: 'codehost_a-289782451',
      repository: 'octo-org/octo-repo',
      status: 'in_progress',
      commitMessage: 'build(test): check workflow run event payload',
    });
  },
  'codehost-b/build.json': (events) => {
    const event = only(events);
    // A Job Hook has no `project`: the path comes from `repository.homepage`.
    expect(event).toMatchObject({
      action: 'record',
      fingerprint: 'gitlab-org/gitlab-test|gitlab-script-trigger|2366|test',
      signal: { type: 'job', severity: 'LOW', metadata: { repository: 'gitlab-org/gitlab-test', status: 'created' } },
    });
    // Created, not finished: the run is ensured, no job is added yet.
    expect(event.pipelineRun).toMatchObject({
      runKey: 'codehost_b-2366',
      scope: 'job',
      repository: 'gitlab-org/gitlab-test',
      status: 'in_progress',
      jobs: [],
      updatedAt: '2021-02-23T02:41:37.886Z',
    });
  },
  'codehost-b/deployment.json': (events) => {
    const event = only(events);
    expect(event).toMatchObject({
      action: 'record',
      fingerprint: 'root/test-deployment-webhooks|deployment|15',
      signal: { type: 'deployment', severity: 'LOW' },
    });
    expect(event.change).toEqual({
      changeKey: 'codehost_b-15',
      provider: 'codehost_b',
      providerDeploymentId: '15',
      summary: 'Deploy root/test-deployment-webhooks@1.0.0 to staging: Add new file',
      status: 'SUCCEEDED',
      environment: 'staging',
      repository: 'root/test-deployment-webhooks',
      // Only inside `commit_url`; the body's own field is the short sha.
      commitSha: '279484c09fbe69ededfced8c1bb6e6d24616b468',
      deployer: 'admin@example.com',
      // `2021-04-28 21:50:00 +0200`
      updatedAt: '2021-04-28T19:50:00.000Z',
      occurredAt: '2021-04-28T19:50:00.000Z',
    });
  },
  'codehost-b/job.json': (events) => {
    const event = only(events);
    expect(event).toMatchObject({
      action: 'record',
      fingerprint: 'jsmithy2/release-tools-fake|main|743121198|auto_deploy:start',
      signal: { type: 'job', metadata: { stage: 'coordinated:tag', environment: 'production' } },
    });
    expect(event.pipelineRun).toMatchObject({
      runKey: 'codehost_b-743121198',
      scope: 'job',
      repository: 'jsmithy2/release-tools-fake',
      branch: 'main',
      commitSha: '95d49d1efbd941908580e79d65e4b5ecaf4a8305',
      triggeredBy: 'jsmithy2',
      status: 'in_progress',
      jobs: [{ name: 'auto_deploy:start', status: 'success', durationSeconds: 49.503592 }],
      updatedAt: '2023-01-10T13:50:54.000Z',
    });
  },
  'codehost-b/merge_request.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'record',
      fingerprint: 'gitlabhq/gitlab-test|merge_request|1',
      signal: { type: 'merge_request', name: 'Merge request !1 open in gitlabhq/gitlab-test: MS-Viewport' },
    });
  },
  'codehost-b/pipeline.json': (events) => {
    const event = only(events);
    expect(event).toMatchObject({
      action: 'record',
      fingerprint: 'gitlab-org/gitlab-test|master|31',
      signal: { name: 'Pipeline #31 succeeded on gitlab-org/gitlab-test@master', type: 'pipeline', severity: 'LOW' },
    });
    expect(event.pipelineRun).toEqual({
      runKey: 'codehost_b-31',
      provider: 'codehost_b',
      providerRunId: '31',
      scope: 'run',
      repository: 'gitlab-org/gitlab-test',
      branch: 'master',
      commitSha: 'bcbb5ec396a2c0f828686f14fac9b80b780504f2',
      commitMessage: 'test\n',
      triggeredBy: 'user1',
      status: 'success',
      startedAt: '2016-08-12T15:23:28.000Z',
      finishedAt: '2016-08-12T15:26:29.000Z',
      durationSeconds: 63,
      // A finished pipeline's never-started jobs (manual `production`, created `staging`) were skipped.
      jobs: [
        { name: 'production', status: 'skipped', durationSeconds: null },
        { name: 'test-image', status: 'success', durationSeconds: 17 },
        { name: 'test-build', status: 'success', durationSeconds: 17 },
        { name: 'build-image', status: 'success', durationSeconds: 17 },
        { name: 'staging', status: 'skipped', durationSeconds: null },
      ],
      updatedAt: '2016-08-12T15:26:29.000Z',
      rawPayload: loadFixture('codehost-b', 'pipeline.json').body,
    });
  },
  'codehost-b/push.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'record',
      fingerprint: 'mike/diaspora|push|refs/heads/master|da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
      signal: {
        name: 'Push to mike/diaspora@master (4 commits)',
        type: 'push',
        metadata: { pusher: 'john@example.com' },
      },
    });
  },
  'codehost-c/docs-01-workflow-completed-github-oauth-bitbucket-cloud.json': (events) => {
    const event = only(events);
    expect(event).toMatchObject({
      action: 'record',
      fingerprint: 'circleci/webhook-service|main|fda08377-fe7e-46b1-8992-3a7aaecac9c3',
      signal: {
        name: 'Workflow "build-test-deploy" succeeded on circleci/webhook-service@main',
        type: 'pipeline',
        metadata: { project: 'github/circleci/webhook-service', pipelineNumber: 130 },
      },
    });
    expect(event.pipelineRun).toMatchObject({
      runKey: 'codehost_c-fda08377-fe7e-46b1-8992-3a7aaecac9c3',
      provider: 'codehost_c',
      scope: 'run',
      repository: 'circleci/webhook-service',
      branch: 'main',
      commitSha: '1dc6aa69429bff4806ad6afe58d3d8f57e25973e',
      commitMessage: 'Description of change\n\nMore details about the change',
      triggeredBy: 'author.email@example.com',
      status: 'success',
      startedAt: '2021-09-01T22:49:03.616Z',
      finishedAt: '2021-09-01T22:49:34.170Z',
      durationSeconds: 30.554,
      jobs: [],
      updatedAt: '2021-09-01T22:49:34.317Z',
    });
  },
  'codehost-c/docs-02-job-completed-github-oauth-bitbucket-cloud.json': (events) => {
    const event = only(events);
    expect(event).toMatchObject({
      action: 'record',
      fingerprint: 'circleci/webhook-service|main|fda08377-fe7e-46b1-8992-3a7aaecac9c3|test',
      signal: { type: 'job', metadata: { job: 'test', jobNumber: 136 } },
    });
    expect(event.pipelineRun).toMatchObject({
      runKey: 'codehost_c-fda08377-fe7e-46b1-8992-3a7aaecac9c3',
      scope: 'job',
      jobs: [{ name: 'test', status: 'success', durationSeconds: 5.329 }],
      updatedAt: '2021-09-01T22:49:34.279Z',
    });
  },
  'metrics-alerts/captured-firing-2alerts.json': (events) => {
    expect(events).toHaveLength(2);
    expect(events.map((event) => event.fingerprint)).toEqual(['b510a84dff31ff97', '9da38cac2b14ad00']);
    for (const event of events) {
      expect(event).toMatchObject({
        action: 'trigger',
        signal: {
          name: 'DiskFull',
          type: 'alert',
          severity: 'MEDIUM',
          serviceId: 'node',
          triggeredAt: '2026-11-22T01:50:26.000Z',
        },
      });
      // Go's zero time is "not ended", not an end.
      expect(event.signal.metadata).not.toHaveProperty('endsAt');
    }
    expect(events[0]?.signal.metadata).toMatchObject({
      labels: { instance: 'db-1' },
      summary: 'Disk almost full on db-1',
    });
    expect(events[1]?.signal.metadata).toMatchObject({
      labels: { instance: 'db-2' },
      summary: 'Disk almost full on db-2',
    });
  },
  'metrics-alerts/captured-request-with-headers.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: 'd0c296e49fc4ad26',
      signal: {
        name: 'HighLatency',
        severity: 'HIGH',
        serviceId: 'api',
        // Nanoseconds, cut to milliseconds.
        triggeredAt: '2026-11-22T02:00:16.633Z',
        // `\u003e` on the wire.
        metadata: { description: 'p99 > 2s for 5m', originalSeverity: 'critical', externalUrl: 'http://vm:19093' },
      },
    });
  },
  'metrics-alerts/captured-resolved.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'resolve',
      fingerprint: 'd0c296e49fc4ad26',
      signal: { type: 'alert', metadata: { status: 'resolved', endsAt: '2026-11-22T02:00:26.000Z' } },
    });
  },
  'metrics-alerts/captured.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: 'd0c296e49fc4ad26',
      signal: { name: 'HighLatency', type: 'alert', severity: 'HIGH', serviceId: 'api' },
    });
  },
  'monitoring/default-payload-template.json': (events) => {
    // The default template as published: variables not substituted, `event_type` for the spec's `type`.
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: 'title|$EVENT_TITLE',
      signal: {
        name: '$EVENT_TITLE',
        type: 'alert',
        severity: 'MEDIUM',
        triggeredAt: RECEIVED_AT.toISOString(),
        metadata: { eventId: '$ID', eventType: '$EVENT_TYPE', message: '$EVENT_MSG', organization: '$ORG_NAME' },
      },
    });
  },
  'orchestrator/core.v1.Event.json': (events) => {
    // Placeholder values: `typeValue` is neither Warning nor Normal, so it is only recorded.
    expect(only(events)).toMatchObject({
      action: 'record',
      fingerprint: 'kindValue|namespaceValue|nameValue|reasonValue',
      signal: {
        type: 'k8s_event',
        severity: 'LOW',
        metadata: { message: 'messageValue', reportingComponent: 'reportingComponentValue', host: 'hostValue' },
      },
    });
  },
  'orchestrator/event-02-Normal-Scheduled-Pod.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'record',
      fingerprint: 'Pod|default|px-5d567cc74c-ss4lb|Scheduled',
      signal: {
        name: 'Scheduled: Pod default/px-5d567cc74c-ss4lb',
        severity: 'LOW',
        // `lastTimestamp` is null in events written through events.k8s.io: `eventTime` it is.
        triggeredAt: '2021-05-19T09:42:58.638Z',
        metadata: { reportingComponent: 'default-scheduler', eventType: 'Normal' },
      },
    });
  },
  'orchestrator/event-09-Normal-Killing-Pod.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'record',
      fingerprint: 'Pod|default|px-7df978b9bf-jm22q|Killing',
      signal: {
        triggeredAt: '2021-05-19T09:43:06.000Z',
        metadata: {
          message: 'Stopping container podinfo',
          fieldPath: 'spec.containers{podinfo}',
          reportingComponent: 'kubelet',
        },
      },
    });
  },
  'orchestrator/events.k8s.io.v1.Event.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'record',
      fingerprint: 'kindValue|namespaceValue|nameValue|reasonValue',
      signal: {
        metadata: {
          message: 'noteValue',
          reportingComponent: 'reportingControllerValue',
          apiVersion: 'events.k8s.io/v1',
        },
      },
    });
  },
  'paging/go-pagerduty-signed-vector.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: 'PGR0VU2',
      signal: {
        name: 'A little bump in the road',
        type: 'incident',
        severity: 'HIGH',
        metadata: { priority: 'P1', webhookVersion: 'v3' },
      },
    });
  },
  'paging/triggered_v3.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: 'PFQZPSY',
      signal: {
        name: 'Test Incident 3',
        type: 'incident',
        // No priority: the urgency decides.
        severity: 'HIGH',
        serviceId: 'pig208',
        triggeredAt: '2021-06-04T13:35:29.781Z',
        metadata: { incidentUrl: 'https://pig208.pagerduty.com/incidents/PFQZPSY', event: 'incident.triggered' },
      },
    });
  },
  'paging/v2-01-incident_trigger.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: 'PRORDTY',
      signal: {
        name: 'My new incident',
        type: 'incident',
        severity: 'HIGH',
        serviceId: 'Production XDB Cluster',
        triggeredAt: '2017-09-26T15:14:36.000Z',
        metadata: { webhookVersion: 'v2', incidentNumber: 33, assignees: ['Laura Haley'] },
      },
    });
  },
  'paging/v2-03-incident_resolve.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'resolve',
      fingerprint: 'PRORDTY',
      signal: { type: 'incident', metadata: { status: 'resolved', event: 'incident.resolve' } },
    });
  },
  'paging/v3-02-webhook_payload.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: 'PGR0VU2',
      signal: {
        severity: 'HIGH',
        metadata: { event: 'incident.priority_updated', incidentKey: 'd3640fbd41094207a1c11e58e46b1662' },
      },
    });
  },
  // Confirmations carry no event: the route confirms them before any normalizing.
  'cloudwatch/subscription-confirmation.json': (events) => expect(events).toEqual([]),
  'cloudwatch/alarm-notification.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:checkout-cpu-high',
      signal: {
        name: 'checkout-cpu-high',
        type: 'alarm',
        severity: 'MEDIUM',
        serviceId: 'checkout',
        triggeredAt: '2026-11-20T10:15:02.115Z',
        metadata: { metricName: 'CPUUtilization', namespace: 'AWS/ECS', threshold: 80, previousState: 'OK' },
      },
    });
  },
  'cloudwatch/ok-notification.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'resolve',
      fingerprint: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:checkout-cpu-high',
      signal: { type: 'alarm', metadata: { state: 'OK' } },
    });
  },
  'cloudwatch/insufficient-data-notification.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'record',
      signal: { type: 'alarm_insufficient_data', severity: 'LOW' },
    });
  },
  'eventbridge/cloudwatch-alarm-state-change.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:ServerCpuTooHigh',
      signal: {
        source: 'eventbridge',
        name: 'ServerCpuTooHigh',
        type: 'alarm',
        triggeredAt: '2019-10-02T17:04:40.989Z',
        metadata: {
          metricName: 'CPUUtilization',
          namespace: 'AWS/EC2',
          dimensions: { InstanceId: 'i-12345678901234567' },
          threshold: 50,
          previousState: 'OK',
        },
      },
    });
  },
  'eventbridge/health-issue.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: expect.stringMatching(/^arn:aws:health:af-south-1::event\/EC2\//),
      signal: {
        type: 'health_issue',
        severity: 'HIGH',
        serviceId: 'checkout',
        triggeredAt: '2023-01-27T06:02:51.000Z',
        metadata: { awsService: 'EC2', category: 'issue', statusCode: 'open' },
      },
    });
  },
  'eventbridge/guardduty-finding.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: '16afba5c5c43e07c9e3e5e2e544e95df',
      signal: { type: 'guardduty_finding', severity: 'HIGH', serviceId: 'checkout', value: 8 },
    });
  },
  'eventbridge/codedeploy-success.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'record',
      signal: { type: 'deployment', severity: 'LOW', serviceId: 'checkout' },
      change: {
        changeKey: 'aws_codedeploy-d-123456789',
        provider: 'aws_codedeploy',
        status: 'SUCCEEDED',
        repository: 'checkout',
        environment: 'production',
        occurredAt: '2016-06-30T22:06:31.000Z',
      },
    });
  },
  'eventbridge/codepipeline-failed.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      signal: { type: 'deployment_failure', severity: 'MEDIUM', serviceId: 'checkout-release' },
      change: {
        changeKey: 'aws_codepipeline-12345678-1234-5678-abcd-12345678abcd',
        status: 'FAILED',
        repository: 'checkout-release',
      },
    });
  },
  'eventbridge/ecs-deployment-completed.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'record',
      change: {
        changeKey: 'aws_ecs-ecs-svc/123',
        status: 'SUCCEEDED',
        repository: 'servicetest',
        environment: 'default',
        updatedAt: '2020-05-23T11:11:11.000Z',
      },
    });
  },
  'eventbridge/ec2-instance-state-change.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'record',
      fingerprint:
        'aws.ec2|EC2 Instance State-change Notification|arn:aws:ec2:us-east-1:123456789012:instance/i-abcd1111',
      signal: { type: 'event', severity: 'LOW', metadata: { detail: { state: 'pending' } } },
    });
  },
};

describe('every real payload through its sender normalizer', () => {
  const fixtures = allFixtureFiles();

  it('has an expectation for every fixture file, and a file for every expectation', () => {
    expect(fixtures.map(({ sender, file }) => `${sender}/${file}`).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(fixtures)('$sender/$file', ({ sender, file }) => {
    const fixture = loadFixture(sender, file);
    const events = normalize(sender, fixture.body, fixture.headers);
    for (const event of events) expectWellFormed(event, sender);
    EXPECTED[`${sender}/${file}`]?.(events);
  });

  it.each(fixtures)('$sender/$file: the same payload again gives the same fingerprints', ({ sender, file }) => {
    const fixture = loadFixture(sender, file);
    const first = normalize(sender, fixture.body, fixture.headers);
    const again = normalizers[sender](
      structuredClone(fixture.body),
      headersFor(sender, file, fixture.raw, fixture.body),
      new Date(RECEIVED_AT.getTime() + 60_000),
    );
    expect(again.map((event) => [event.signal.type, event.fingerprint])).toEqual(
      first.map((event) => [event.signal.type, event.fingerprint]),
    );
  });
});

describe('the go-pagerduty signed vector', () => {
  it('is the exact signed body, and it parses', () => {
    const vector = JSON.parse(
      readFileSync(join(FIXTURES_DIR, 'paging', 'go-pagerduty-signed-vector.json'), 'utf8'),
    ) as {
      secret: string;
      signature: string;
      body: string;
    };
    const signature = createHmac('sha256', vector.secret).update(vector.body).digest('hex');
    expect(vector.signature).toBe(`v1=${signature}`);
    const [event] = normalize('paging', JSON.parse(vector.body));
    expect(event?.fingerprint).toBe('PGR0VU2');
  });
});

describe('metrics alerts', () => {
  const firing = loadFixture('metrics-alerts', 'captured.json').body;
  const resolved = loadFixture('metrics-alerts', 'captured-resolved.json').body;
  const identity = (event: NormalizedEvent | undefined) => [event?.signal.type, event?.fingerprint];

  it('gives two different alerts of one group different fingerprints', () => {
    const [first, second] = normalize(
      'metrics-alerts',
      loadFixture('metrics-alerts', 'captured-firing-2alerts.json').body,
    );
    expect(first?.fingerprint).not.toBe(second?.fingerprint);
  });

  it('gives a resolved alert the identity of its firing twin, with or without its own fingerprint', () => {
    expect(identity(normalize('metrics-alerts', resolved)[0])).toEqual(
      identity(normalize('metrics-alerts', firing)[0]),
    );
    const [bareFiring] = normalize('metrics-alerts', withFields(firing, { 'alerts.0.fingerprint': undefined }));
    const [bareResolved] = normalize('metrics-alerts', withFields(resolved, { 'alerts.0.fingerprint': undefined }));
    expect(bareFiring?.fingerprint).toBe(
      '{alertname="HighLatency",instance="web-1",service="api",severity="critical"}',
    );
    expect(identity(bareResolved)).toEqual(identity(bareFiring));
  });

  it('sorts labels, so their order on the wire does not matter', () => {
    const reordered = withFields(firing, {
      'alerts.0.fingerprint': undefined,
      'alerts.0.labels': { severity: 'critical', service: 'api', instance: 'web-1', alertname: 'HighLatency' },
    });
    expect(normalize('metrics-alerts', reordered)[0]?.fingerprint).toBe(
      '{alertname="HighLatency",instance="web-1",service="api",severity="critical"}',
    );
  });

  it('decides per alert, maps severity labels, and takes the job when there is no service label', () => {
    const mixed = withFields(loadFixture('metrics-alerts', 'captured-firing-2alerts.json').body, {
      'alerts.1.status': 'resolved',
      'alerts.0.labels.severity': 'page',
      'alerts.0.annotations.value': '97.5',
    });
    const [first, second] = normalize('metrics-alerts', mixed);
    expect(first).toMatchObject({ action: 'trigger', signal: { severity: 'HIGH', value: 97.5, serviceId: 'node' } });
    expect(second).toMatchObject({ action: 'resolve', signal: { severity: 'MEDIUM' } });
    const levels = ['critical', 'warning', 'info', 'unheard-of'].map(
      (level) =>
        normalize('metrics-alerts', withFields(firing, { 'alerts.0.labels.severity': level }))[0]?.signal.severity,
    );
    expect(levels).toEqual(['HIGH', 'MEDIUM', 'LOW', 'MEDIUM']);
    const unlabelled = withFields(firing, { 'alerts.0.labels': { alertname: 'HighLatency' } });
    expect(normalize('metrics-alerts', unlabelled)[0]?.signal).toMatchObject({
      severity: 'MEDIUM',
      serviceId: undefined,
    });
  });
});
