import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { esbuildOptions, FUNCTIONS_DIR, functionEntry, OUTPUT_FILE, PROJECT_ROOT } from '#infra/bundling.ts';

/**
 * `npm run build`: every function bundled exactly as CDK bundles it for Lambda, into
 * `dist/<function>/index.mjs`, then a table of bundle sizes, largest first.
 */
const DIST = join(PROJECT_ROOT, 'dist');

const functionNames = readdirSync(FUNCTIONS_DIR).filter((name) => existsSync(functionEntry(name)));

const results = await Promise.all(
  functionNames.map(async (name) => {
    const outfile = join(DIST, name, OUTPUT_FILE);
    await build(esbuildOptions(functionEntry(name), outfile));
    return { name, bytes: statSync(outfile).size };
  }),
);

const kilobytes = (bytes: number): string => (bytes / 1024).toFixed(1);
const rows = results.sort((a, b) => b.bytes - a.bytes);
const width = Math.max('function'.length, ...rows.map((row) => row.name.length));
console.log(`${'function'.padEnd(width)}  ${'KB'.padStart(8)}`);
for (const { name, bytes } of rows) console.log(`${name.padEnd(width)}  ${kilobytes(bytes).padStart(8)}`);
const total = rows.reduce((sum, row) => sum + row.bytes, 0);
console.log(
  `${`${rows.length} bundles`.padEnd(width)}  ${kilobytes(total).padStart(8)}  in ${relative(process.cwd(), DIST)}/`,
);
