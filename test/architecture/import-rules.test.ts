import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = new URL('../..', import.meta.url).pathname;
const written: string[] = [];

afterEach(async () => {
  await Promise.all(written.splice(0).map((path) => rm(path, { force: true })));
});

/** Writes a module with one import into the tree and asks dependency-cruiser which rules it breaks. */
const violationsOf = async (path: string, importLine: string): Promise<string[]> => {
  const file = join(ROOT, path);
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, `${importLine}\nexport const probe = typeof imported;\n`);
  written.push(file);
  const { stdout } = await run(
    'npx',
    ['depcruise', path, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
    {
      cwd: ROOT,
    },
  ).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
  const result = JSON.parse(stdout) as { summary: { violations: { rule: { name: string } }[] } };
  return result.summary.violations.map((violation) => violation.rule.name);
};

describe('the import rules npm test runs', () => {
  it('refuse the AWS SDK in a domain file that is not a repository', async () => {
    const violations = await violationsOf(
      'lib/signals/probe-wrong-import.ts',
      "import * as imported from '@aws-sdk/client-sqs';",
    );
    expect(violations).toContain('aws-sdk-only-in-adapters');
  });

  it('refuse lib/store reaching up into lib/http', async () => {
    const violations = await violationsOf(
      'lib/store/probe-wrong-import.ts',
      "import * as imported from '#lib/http/envelope.ts';",
    );
    expect(violations).toContain('store-is-a-leaf');
  });

  it('refuse a domain folder importing the HTTP layer', async () => {
    const violations = await violationsOf(
      'lib/tickets/probe-wrong-import.ts',
      "import * as imported from '#lib/http/pagination.ts';",
    );
    expect(violations).toContain('domain-knows-no-http');
  });

  it('refuse the AWS SDK in a repository too: repositories reach the table through the store kit', async () => {
    const violations = await violationsOf(
      'lib/signals/probe-repository.ts',
      "import * as imported from '@aws-sdk/lib-dynamodb';",
    );
    expect(violations).toContain('aws-sdk-only-in-adapters');
  });

  it('accept the same SDK import in the store kit', async () => {
    const violations = await violationsOf(
      'lib/store/probe-sdk.ts',
      "import * as imported from '@aws-sdk/lib-dynamodb';",
    );
    expect(violations).toEqual([]);
  });

  it('refuse table access outside repositories', async () => {
    const violations = await violationsOf(
      'lib/signals/probe-service.ts',
      "import * as imported from '#lib/store/queries.ts';",
    );
    expect(violations).toContain('table-access-only-in-repositories');
  });

  it('refuse keys outside repositories and entity item modules', async () => {
    const violations = await violationsOf(
      'lib/signals/probe-keys.ts',
      "import * as imported from '#lib/store/keys.ts';",
    );
    expect(violations).toContain('keys-only-in-entity-modules');
  });

  it('accept table access and keys in a repository', async () => {
    const violations = await violationsOf(
      'lib/signals/probe-repository.ts',
      "import * as imported from '#lib/store/queries.ts';",
    );
    expect(violations).toEqual([]);
  });
});
