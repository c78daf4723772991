import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { SignedIn } from '../support/accounts.ts';
import { startFakeCodeHost, type FakeCodeHost } from '../support/fake-code-host.ts';
import type { HttpClient } from '../support/local-stack.ts';
import { loadFixture, withFields } from '../ingestion/support.ts';
import { expectAccepted, postRaw } from '../ingestion-routes/support.ts';
import { deployHelloWorld } from '../analysis/support.ts';

export const CODE_ENGINE = '/api/v1/code-engine';

/** The repository and commit the deployment fixture names. */
export const REPO = 'Codertocat/Hello-World';
export const DEPLOYED_SHA = 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e';
/** The commit the workflow-run fixture names. */
export const RUN_SHA = '5779607b49aab1200488439f02372c57b4f75444';

/** The main branch as the deployed commit left it: a timeout cut to 300 ms and a new flags file. */
export const MAIN_AFTER_COMMIT = {
  'src/client.js': 'const retries = 3;\nconst timeoutMs = 300;\nmodule.exports = { retries, timeoutMs };\n',
  'config/flags.json': '{"newCheckout": true}\n',
  'README.md': '# Hello\n',
};

export const DEPLOYED_COMMIT_FILES = [
  {
    filename: 'src/client.js',
    status: 'modified',
    patch:
      '@@ -1,3 +1,3 @@\n const retries = 3;\n-const timeoutMs = 3000;\n+const timeoutMs = 300;\n module.exports = { retries, timeoutMs };',
  },
  { filename: 'config/flags.json', status: 'added', patch: '@@ -0,0 +1 @@\n+{"newCheckout": true}' },
];

/** The revert of the deployed commit, as `git apply` takes it. */
export const EXPECTED_DIFF = `diff --git a/src/client.js b/src/client.js
--- a/src/client.js
+++ b/src/client.js
@@ -1,3 +1,3 @@
 const retries = 3;
-const timeoutMs = 300;
+const timeoutMs = 3000;
 module.exports = { retries, timeoutMs };
diff --git a/config/flags.json b/config/flags.json
deleted file mode 100644
--- a/config/flags.json
+++ /dev/null
@@ -1,1 +0,0 @@
-{"newCheckout": true}
`;

export const startSeededCodeHost = async (): Promise<FakeCodeHost> => {
  const host = await startFakeCodeHost();
  host.addRepository(REPO, { main: MAIN_AFTER_COMMIT });
  host.addCommit(REPO, DEPLOYED_SHA, 'Cut the client timeout to 300 ms\n\nFaster failover.', DEPLOYED_COMMIT_FILES);
  return host;
};

/**
 * The deployment fixture as code host A sent it: a successful deployment of REPO at DEPLOYED_SHA to production,
 * dated now (its own dates are years old, and a change is placed at the time its payload gives).
 */
export const postDeployment = (client: HttpClient, keyHeaders: Record<string, string>): Promise<void> =>
  deployHelloWorld(client, keyHeaders, 0);

/** The workflow-run fixture, started `minutesAgo` (the fixture's own dates are years old, outside any window). */
export const postPipelineRun = async (
  client: HttpClient,
  keyHeaders: Record<string, string>,
  minutesAgo: number,
): Promise<void> => {
  const fixture = loadFixture('codehost-a', 'workflow_run.completed.0.json');
  const startedAt = new Date(Date.now() - minutesAgo * 60_000).toISOString().replace(/\.\d{3}/, '');
  const body = withFields(fixture.body, {
    'workflow_run.run_started_at': startedAt,
    'workflow_run.updated_at': startedAt,
  });
  expectAccepted(
    await postRaw(
      client,
      'codehost-a',
      JSON.stringify(body),
      { 'x-github-event': 'workflow_run', 'x-github-delivery': randomUUID() },
      { headers: keyHeaders },
    ),
  );
};

export const connectCodeHost = async (
  client: HttpClient,
  admin: SignedIn,
  host: FakeCodeHost,
  token = host.token,
): Promise<void> => {
  const reply = await client.request('PUT', `${CODE_ENGINE}/settings`, { token, baseUrl: host.url }, admin.auth);
  expect(reply.status, reply.text).toBe(200);
};
