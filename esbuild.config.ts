import { rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import {
  coldStartFiles,
  functionFiles,
  esbuildOptions,
  functionEntry,
  functionNames,
  OUTPUT_FILE,
  PROJECT_ROOT,
} from '#infra/bundling.ts';

/**
 * `npm run build`: every function bundled exactly as CDK bundles it for Lambda, into `dist/<function>/`
 * (`index.mjs` and its chunks), then a table of sizes, largest first: what a cold start loads (the entry
 * and the chunks it imports statically) and the chunks loaded on first use.
 */
const DIST = join(PROJECT_ROOT, 'dist');

const results = await Promise.all(
  functionNames().map(async (name) => {
    const outdir = join(DIST, name);
    // esbuild leaves files of an earlier build in place, and chunk names carry a content hash.
    await rm(outdir, { recursive: true, force: true });
    const { metafile } = await build({ ...esbuildOptions(functionEntry(name), outdir), metafile: true });
    functionFiles(name, outdir);
    const code = Object.entries(metafile.outputs).filter(([file]) => file.endsWith('.mjs'));
    const entry = code.find(([file]) => file.endsWith(`${name}/${OUTPUT_FILE}`))?.[0] ?? '';
    const cold = coldStartFiles(metafile, entry);
    const bytes = (atColdStart: boolean): number =>
      code.filter(([file]) => cold.has(file) === atColdStart).reduce((sum, [, out]) => sum + out.bytes, 0);
    return { name, cold: bytes(true), lazy: bytes(false) };
  }),
);

const kilobytes = (bytes: number): string => (bytes / 1024).toFixed(1);
const rows = results.sort((a, b) => b.cold - a.cold);
const width = Math.max('function'.length, ...rows.map((row) => row.name.length));
console.log(`${'function'.padEnd(width)}  ${'cold KB'.padStart(9)}  ${'lazy KB'.padStart(9)}`);
for (const { name, cold, lazy } of rows) {
  console.log(`${name.padEnd(width)}  ${kilobytes(cold).padStart(9)}  ${kilobytes(lazy).padStart(9)}`);
}
const total = rows.reduce((sum, row) => sum + row.cold + row.lazy, 0);
console.log(
  `${`${rows.length} functions`.padEnd(width)}  ${kilobytes(total).padStart(20)}  in ${relative(process.cwd(), DIST)}/`,
);
