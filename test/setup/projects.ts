import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The suite's projects, by what a test file needs:
 * - bundles: every function built (once per run, by test/setup/build-bundles.ts);
 * - slow: a synthesized app: seconds of CPU each, in the worker itself;
 * - isolated: a file that replaces a module (`vi.mock`), which must not leak into the module graph every other
 *   project shares between the files of a worker;
 * - stack: the whole local stack, in the test's process (`startTestStack`, directly or through a helper) or
 *   spawned as `npm start` runs it, with or without a browser on it;
 * - unit: everything else.
 * The browser and `npm start` files are stack files on purpose: their work is in children (Chromium, the
 * spawned stack) while their worker waits, and a plain stack file's worker waits on its threads and timers about
 * a third of the time. Mixed in one project, each fills the cores the other leaves idle (docs/testing.md).
 * Which files start a stack is read from the code (the file and the test helpers it imports), so a new test
 * lands in the right project without a list to keep.
 */
export const BUNDLE_TESTS = ['test/architecture/bundles.test.ts', 'test/infra/bundles-with-template-env.test.ts'];

export const SLOW_TESTS = [
  'test/infra/**/*.test.ts',
  // Synthesizes the app for the incidents function's environment: beside the other synths, the CDK is loaded
  // already and the synth may be cached (test/infra/template.ts), where a stack worker loaded it for this alone.
  'test/analysis/bedrock-budget.test.ts',
];

const STARTS_A_STACK = /\b(startTestStack|startLocalStack|spawnStartScript)\(/;
const MOCKS_A_MODULE = /\bvi\.(mock|doMock)\(/;
const RELATIVE_IMPORT = /from '(\.{1,2}\/[^']+\.ts)'/g;

const testFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });

const startsAStack = (file: string, seen = new Set<string>()): boolean => {
  if (seen.has(file)) return false;
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  if (STARTS_A_STACK.test(code)) return true;
  return [...code.matchAll(RELATIVE_IMPORT)].some(([, path]) => startsAStack(resolve(dirname(file), path ?? ''), seen));
};

/** The test files, relative to `root`, that start the local stack. */
export const stackTests = (root: string): string[] =>
  testFiles(join(root, 'test'))
    .filter((file) => startsAStack(file))
    .map((file) => relative(root, file));

/** The test files, relative to `root`, that replace a module. */
export const isolatedTests = (root: string): string[] =>
  testFiles(join(root, 'test'))
    .filter((file) => MOCKS_A_MODULE.test(readFileSync(file, 'utf8')))
    .map((file) => relative(root, file));
