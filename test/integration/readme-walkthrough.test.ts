import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '#lib/ports/clock.ts';
import { DEFAULT_RATE_LIMITS } from '#lib/ports/rate-limits.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

const run = promisify(execFile);

/** The README's walk-through: the first `sh` block after its heading, exactly as a reader copies it. */
const walkthrough = (): string => {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('## A short walk through'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README has no walk-through block');
  return block;
};

/**
 * What the README says a command prints: a comment line right after it, or a `# <status>` at its end. Numbers
 * that depend on the clock (seconds until a window resets) may differ.
 */
const expectedOutputs = (script: string): RegExp[] =>
  script
    .split('\n')
    .flatMap((line) => {
      const whole = /^# ([[{H].*|[a-z-]+: .*)$/.exec(line)?.[1];
      const trailing = /\S.*\s#\s(\d{3})$/.exec(line)?.[1];
      return whole ? [whole] : trailing ? [trailing] : [];
    })
    .map((text) => {
      const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return new RegExp(escaped.replace(/^(retry-after|ratelimit-reset): \d+$/, '$1: \\d+'), 'im');
    });

/**
 * The limiter counts in whole-minute windows, so the walk-through's 101 requests meet the limit only if they
 * fall in one. The service's clock is set so that a minute has just begun when the walk-through starts,
 * leaving it a minute however slowly a loaded machine runs it.
 */
const minuteJustBegun = (): Clock => {
  const offset = 60_000 - (Date.now() % 60_000) + 1_000;
  return { now: () => new Date(Date.now() + offset) };
};

let client: TestClient;
beforeAll(async () => {
  client = await startTestStack(':memory:', DEFAULT_RATE_LIMITS, { workers: true, clock: minuteJustBegun() });
});
afterAll(async () => {
  await client.stack.stop();
});

describe('the README walk-through', () => {
  it('runs verbatim on any port with the default limits and prints what the README says', async () => {
    const script = walkthrough();
    const port = new URL(client.stack.url).port;
    expect(port).not.toBe('3000');
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], {
      env: { ...process.env, PORT: port },
      timeout: 90_000,
    });
    const missing = expectedOutputs(script).filter((expected) => !expected.test(stdout));
    expect(missing.map(String)).toEqual([]);
  }, 120_000);
});

describe("the README's top, as a newcomer reads it", () => {
  const readme = readFileSync('README.md', 'utf8');
  const top = readme.slice(0, readme.indexOf('\n## '));

  it('says what the service is before anything else, then the two commands a fresh clone needs', () => {
    const paragraphs = top.split('\n\n');
    expect(paragraphs[1]).toMatch(/^A multi-tenant incident-management backend for AWS serverless\./);
    expect(paragraphs[2]).toBe('A fresh clone needs `npm ci`, then `npm start` to run it or `npm test` to test it:');
    expect(paragraphs[3]).toMatch(/^```sh\nnpm ci && npm start .*\nnpm ci && npm test .*\n```$/);
  });

  it('describes npm test as the script runs it, and links the way to add an endpoint group', () => {
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(scripts.test).toBe('tsx test/setup/npm-test.ts');
    expect(readFileSync('test/setup/npm-test.ts', 'utf8')).toContain("'npm', 'run', '--silent', 'checks'");
    expect(scripts.checks).toBe('npm run typecheck && biome ci . && npm run deps:check && knip --no-progress');
    expect(top).toMatch(
      /`npm test` runs the static checks \(`npm run checks`: `tsc --noEmit`[\s\S]*Biome[\s\S]*dependency-cruiser[\s\S]*knip[\s\S]*beside the whole vitest suite/,
    );
    const architecture = readFileSync('docs/architecture.md', 'utf8');
    expect(architecture).toContain('\n### A new endpoint group\n');
    expect(top).toContain('(docs/architecture.md#a-new-endpoint-group)');
  });
});
