/** Code hosts' failures as problems, from variants of their real payloads. */
import { describe, expect, it } from 'vitest';
import { loadFixture, normalizeOne as one, withFields } from './support.ts';

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
