import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BUNDLE_TESTS, isolatedTests, SLOW_TESTS, stackTests } from './test/setup/projects.ts';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const STACK_TESTS = stackTests(ROOT);
const ISOLATED_TESTS = isolatedTests(ROOT);
/**
 * One file per core: a stack file's own threads (the store, the queues) and children (Chromium, bundles) fill
 * the cores while its worker waits on them. A file more than there are cores cost a fifth more CPU in
 * contention (measured in docs/testing.md).
 */
const WORKERS = availableParallelism();

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: WORKERS,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    allowOnly: false,
    // The SDK's Node 22 notice is about its future releases, not the pinned one (infra/local/main.ts). Passwords are
    // hashed at a sixteenth of the deployed cost: the suite signs up about 400 people (lib/accounts/passwords.ts).
    env: { LOG_LEVEL: 'silent', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', SCRYPT_COST_LOG2: '10' },
    /**
     * Each project has a Vite server of its own, and each worker process fetches every module it imports from it:
     * kept on disk (node_modules/.experimental-vitest-cache, keyed by file content and config), a module is
     * transformed once for all five projects and read from the file after that. A clean clone's run used about a
     * tenth less CPU (docs/testing.md); a second run on the same install, less still.
     */
    experimental: { fsModuleCache: true },
    /**
     * A young generation four times V8's default for the workers: the suite allocates fast (CDK synths, the local
     * stack's requests), and with fewer scavenges fewer short-lived objects reach the old generation. Interleaved
     * runs (docs/testing.md): three synth files 29-36 s of CPU against 36-41 s; 34 stack files 54-63 s against
     * 55-68 s. It lets each worker hold up to about 150 MB more before it collects.
     */
    execArgv: ['--max-semi-space-size=64'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...STACK_TESTS, ...SLOW_TESTS, ...BUNDLE_TESTS, ...ISOLATED_TESTS],
          // A fresh process per file cost the project twice its CPU (62 s against 33 s); the files that replace a
          // module are the isolated project's.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'stack',
          include: STACK_TESTS,
          exclude: [...SLOW_TESTS, ...BUNDLE_TESTS, ...ISOLATED_TESTS],
          /**
           * Every file starts a stack of its own and installs its ports, but imports the same handlers, SDK
           * clients and schemas: evaluating them afresh for each file cost about 1.5 s a file, 140 s of the
           * suite's CPU. Shared, they must hold nothing of one stack, which the ports rule already asks.
           */
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'slow',
          include: SLOW_TESTS,
          exclude: [...BUNDLE_TESTS, ...ISOLATED_TESTS],
          // A synth with cdk-nag's checks takes 15-20 s of CPU alone; beside a loaded machine's other work it
          // has taken over 30 s, which is slow, not wrong.
          testTimeout: 120_000,
          // The infra files import the CDK (seconds of CPU each) and read the same default app
          // (test/infra/template.ts): shared by the files of a worker, both are paid once per worker.
          isolate: false,
        },
      },
      {
        extends: true,
        // A file that replaces a module gets a module graph of its own.
        test: { name: 'isolated', include: ISOLATED_TESTS, isolate: true },
      },
      {
        extends: true,
        test: { name: 'bundles', include: BUNDLE_TESTS, globalSetup: ['test/setup/build-bundles.ts'] },
      },
    ],
  },
});
