import { rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { esbuildOptions, functionEntry, functionNames, OUTPUT_FILE, PROJECT_ROOT } from '#infra/bundling.ts';

/**
 * `npm run build`: every function bundled exactly as CDK bundles it for Lambda, into `dist/<function>/`
 * (`index.mjs` and the chunks it loads on first use), then a table of sizes, largest entry first.
 */
const DIST = join(PROJECT_ROOT, 'dist');

const results = await Promise.all(
  functionNames().map(async (name) => {
    const outdir = join(DIST, name);
    // esbuild leaves files of an earlier build in place, and chunk names carry a content hash.
    await rm(outdir, { recursive: true, force: true });
    const { metafile } = await build({ ...esbuildOptions(functionEntry(name), outdir), metafile: true });
    const code = Object.entries(metafile.outputs).filter(([file]) => file.endsWith('.mjs'));
    const bytes = (entry: boolean): number =>
      code.filter(([file]) => file.endsWith(`/${OUTPUT_FILE}`) === entry).reduce((sum, [, out]) => sum + out.bytes, 0);
    return { name, entry: bytes(true), chunks: bytes(false) };
  }),
);

const kilobytes = (bytes: number): string => (bytes / 1024).toFixed(1);
const rows = results.sort((a, b) => b.entry - a.entry);
const width = Math.max('function'.length, ...rows.map((row) => row.name.length));
console.log(`${'function'.padEnd(width)}  ${'entry KB'.padStart(9)}  ${'chunks KB'.padStart(9)}`);
for (const { name, entry, chunks } of rows) {
  console.log(`${name.padEnd(width)}  ${kilobytes(entry).padStart(9)}  ${kilobytes(chunks).padStart(9)}`);
}
const total = rows.reduce((sum, row) => sum + row.entry + row.chunks, 0);
console.log(
  `${`${rows.length} functions`.padEnd(width)}  ${kilobytes(total).padStart(20)}  in ${relative(process.cwd(), DIST)}/`,
);
