import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = new URL('../..', import.meta.url).pathname;

/** A module with one import, written into the tree, and the rules dependency-cruiser says it breaks. */
interface Probe {
  rule: string;
  path: string;
  importLine: string;
  /** The rule it must break, or none for an import the rules accept. */
  breaks: string | undefined;
}

const PROBES: Probe[] = [
  {
    rule: 'refuse the AWS SDK in a domain file that is not a repository',
    path: 'lib/signals/probe-wrong-import.ts',
    importLine: "import * as imported from '@aws-sdk/client-sqs';",
    breaks: 'aws-sdk-only-in-adapters',
  },
  {
    rule: 'refuse lib/store reaching up into lib/http',
    path: 'lib/store/probe-wrong-import.ts',
    importLine: "import * as imported from '#lib/http/envelope.ts';",
    breaks: 'store-is-a-leaf',
  },
  {
    rule: 'refuse a domain folder importing the HTTP layer',
    path: 'lib/tickets/probe-wrong-import.ts',
    importLine: "import * as imported from '#lib/http/pagination.ts';",
    breaks: 'domain-knows-no-http',
  },
  {
    rule: 'refuse the AWS SDK in a repository too: repositories reach the table through the store kit',
    path: 'lib/signals/probe-sdk-repository.ts',
    importLine: "import * as imported from '@aws-sdk/lib-dynamodb';",
    breaks: 'aws-sdk-only-in-adapters',
  },
  {
    rule: 'accept the same SDK import in the store kit',
    path: 'lib/store/probe-sdk.ts',
    importLine: "import * as imported from '@aws-sdk/lib-dynamodb';",
    breaks: undefined,
  },
  {
    rule: 'refuse table access outside repositories',
    path: 'lib/signals/probe-service.ts',
    importLine: "import * as imported from '#lib/store/queries.ts';",
    breaks: 'table-access-only-in-repositories',
  },
  {
    rule: 'refuse keys outside repositories and entity item modules',
    path: 'lib/signals/probe-keys.ts',
    importLine: "import * as imported from '#lib/store/keys.ts';",
    breaks: 'keys-only-in-entity-modules',
  },
  {
    rule: 'accept table access and keys in a repository',
    path: 'lib/signals/probe-repository.ts',
    importLine: "import * as imported from '#lib/store/queries.ts';",
    breaks: undefined,
  },
];

/** The rules each probe breaks, from one dependency-cruiser run over all of them (a run each took seconds). */
const violations = new Map<string, string[]>();

beforeAll(async () => {
  for (const { path, importLine } of PROBES) {
    await mkdir(join(ROOT, path, '..'), { recursive: true });
    await writeFile(join(ROOT, path), `${importLine}\nexport const probe = typeof imported;\n`);
  }
  const paths = PROBES.map(({ path }) => path);
  const { stdout } = await run(
    'npx',
    ['depcruise', ...paths, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
    { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
  ).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
  const result = JSON.parse(stdout) as { summary: { violations: { from: string; rule: { name: string } }[] } };
  for (const { from, rule } of result.summary.violations)
    violations.set(from, [...(violations.get(from) ?? []), rule.name]);
}, 60_000);

afterAll(async () => {
  await Promise.all(PROBES.map(({ path }) => rm(join(ROOT, path), { force: true })));
});

describe('the import rules npm test runs', () => {
  for (const { rule, path, breaks } of PROBES) {
    it(rule, () => {
      if (breaks) expect(violations.get(path) ?? []).toContain(breaks);
      else expect(violations.get(path) ?? []).toEqual([]);
    });
  }
});
