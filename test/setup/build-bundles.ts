import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { copyPackageFiles, esbuildOptions, functionNames } from '#infra/bundling.ts';
import { bundleBuildOptions, FLOOR } from '../../bench/bundle-sizes.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the global setup built every function, the floor and the bundle runner (test/support/built-bundles.ts). */
    bundlesDir: string;
  }
}

/** Each bundle's metafile sits beside it under this name. */
export const METAFILE = 'metafile.json';
export const RUNNER = 'runner';

const RUNNER_ENTRY = fileURLToPath(new URL('../support/bundle-child.ts', import.meta.url));

/**
 * Every function and the floor bundled once per run, as the bundle budget measures them, with the files
 * a function ships beside its bundle, plus the child that runs a bundle: the bundle-size test and the
 * test that runs each bundle with its template's environment share them (esbuild spreads the work over
 * the cores).
 */
export default async function buildBundles(project: TestProject): Promise<() => Promise<void>> {
  const outDir = await mkdtemp(join(tmpdir(), 'bundles-'));
  await Promise.all([
    ...[FLOOR, ...functionNames()].map(async (name) => {
      const { metafile } = await build(bundleBuildOptions(name, outDir));
      copyPackageFiles(name, join(outDir, name));
      await mkdir(join(outDir, name), { recursive: true });
      await writeFile(join(outDir, name, METAFILE), JSON.stringify(metafile));
    }),
    build(esbuildOptions(RUNNER_ENTRY, join(outDir, RUNNER))),
  ]);
  project.provide('bundlesDir', outDir);
  return () => rm(outDir, { recursive: true, force: true });
}
