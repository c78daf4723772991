import { execFile } from 'node:child_process';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { coldStartFiles, esbuildOptions, functionEntry, OUTPUT_FILE, PROJECT_ROOT } from '#infra/bundling.ts';

/**
 * The bundle budget's measurements, shared by `npm run bench` and the bundle test: every function
 * and the floor (a bare document-client handler, bench/floor/) built with the same options in the same run.
 */
export const FLOOR = 'floor';
const FLOOR_ENTRY = join(PROJECT_ROOT, 'bench', FLOOR, 'index.ts');

/** Each function's entry file may be at most this many times the floor, in size and in cold import time. */
export const BUDGET = 1.3;

export interface BuiltBundle {
  name: string;
  /** The file the runtime imports at cold start. */
  entry: string;
  /**
   * What a cold start loads: the entry file and the chunks it imports statically (esbuild moves code
   * that a dynamic import shares with the entry into such chunks), in bytes.
   */
  coldBytes: number;
  /** The chunks only a dynamic import reaches, loaded on first use, by file name under the bundle. */
  lazyChunks: { file: string; bytes: number }[];
  /** Bytes of the cold-start files by package (`zod`, `@aws-sdk/client-sqs`) or source folder (`lib/http`). */
  coldParts: Map<string, number>;
  metafile: Metafile;
}

/** A path in the metafile, by what it belongs to: its package, or its folder two levels deep. */
const partOf = (input: string): string =>
  input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? input.split('/').slice(0, 2).join('/');

/** The build options of the budget's measurements: a function's (or the floor's) bundle with its metafile. */
export const bundleBuildOptions = (name: string, outDir: string): BuildOptions => ({
  ...esbuildOptions(name === FLOOR ? FLOOR_ENTRY : functionEntry(name), join(outDir, name)),
  metafile: true,
  sourcemap: false,
});

/** What a built bundle loads at cold start and later, read from its metafile. */
export const describeBundle = (name: string, outDir: string, metafile: Metafile): BuiltBundle => {
  const outdir = join(outDir, name);
  const entry = join(outdir, OUTPUT_FILE);
  const entryOutput = Object.keys(metafile.outputs).find((file) => resolve(file) === entry);
  if (!entryOutput) throw new Error(`${name}: esbuild wrote no ${OUTPUT_FILE}`);
  const cold = coldStartFiles(metafile, entryOutput);
  const coldParts = new Map<string, number>();
  let coldBytes = 0;
  const lazyChunks: BuiltBundle['lazyChunks'] = [];
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (!cold.has(file)) {
      lazyChunks.push({ file: relative(outdir, resolve(file)), bytes: output.bytes });
      continue;
    }
    coldBytes += output.bytes;
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      coldParts.set(partOf(input), (coldParts.get(partOf(input)) ?? 0) + bytesInOutput);
    }
  }
  return { name, entry, coldBytes, lazyChunks, coldParts, metafile };
};

export const buildBundle = async (name: string, outDir: string): Promise<BuiltBundle> => {
  const { metafile } = await build(bundleBuildOptions(name, outDir));
  if (!metafile) throw new Error(`${name}: esbuild wrote no metafile`);
  return describeBundle(name, outDir, metafile);
};

const run = promisify(execFile);

const importMs = async (file: string): Promise<number> => {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(performance.now() - t);`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { env: {} });
  return Number(stdout.trim().split('\n').at(-1));
};

/**
 * Milliseconds a fresh `node` takes to import each file, the module-load part of a cold start: timed inside
 * the process, so node's own start-up is left out. The median of `runs` processes per file, taken in
 * rounds over all the files, one process at a time, so a burst of load elsewhere on the machine spreads
 * over every file instead of skewing one.
 */
export const coldImportMs = async (files: readonly string[], runs: number): Promise<number[]> => {
  const samples = files.map((): number[] => []);
  for (let round = 0; round < runs; round += 1) {
    for (const [index, file] of files.entries()) samples[index]?.push(await importMs(file));
  }
  return samples.map((taken) => taken.sort((a, b) => a - b)[Math.floor(taken.length / 2)] ?? Number.NaN);
};
