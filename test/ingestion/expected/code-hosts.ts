import { expect } from 'vitest';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { loadFixture, only, RECEIVED_AT } from '../support.ts';

/** What each code host's real payloads must give. */
export const CODE_HOST_EXPECTATIONS: Record<string, (events: NormalizedEvent[]) => void> = {
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
};
