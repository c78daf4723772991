import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { LogLevel, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const FUNCTIONS_DIR = join(PROJECT_ROOT, 'functions');

/** Every function, one per route group plus the workers, lives at `functions/<name>/index.ts`. */
export const functionEntry = (name: string): string => join(FUNCTIONS_DIR, name, 'index.ts');

/** The Lambda runtime's Node major; esbuild targets the same so nothing is down-levelled needlessly. */
const TARGET = 'node22';

/**
 * ESM output has no `require`, `__filename` or `__dirname`, yet CommonJS dependencies bundled into it
 * call `require('node:...')`, and pdfmake reads its font metrics relative to `__dirname`. The aliases
 * keep the banner's imports clear of the bundle's own names.
 */
const BANNER = [
  "import { createRequire as __bannerCreateRequire } from 'node:module';",
  "import { fileURLToPath as __bannerFileUrlToPath } from 'node:url';",
  "import { dirname as __bannerDirname } from 'node:path';",
  'const require = __bannerCreateRequire(import.meta.url);',
  'const __filename = __bannerFileUrlToPath(import.meta.url);',
  'const __dirname = __bannerDirname(__filename);',
].join(' ');

/**
 * One description of a function bundle, for CDK and for `npm run build`:
 * - the AWS SDK is bundled, not taken from the runtime: minified ESM imports faster than the runtime's
 *   CommonJS copy (STACK-NOTES, Bundles) and the version is the one we tested;
 * - `module` first picks dependencies' ESM builds, which tree-shake;
 * - source maps without sources: stack traces get real file and line, the asset stays small.
 *   They only apply with `NODE_OPTIONS=--enable-source-maps`, which the function construct sets.
 */
const BUNDLE = {
  target: TARGET,
  minify: true,
  mainFields: ['module', 'main'],
  sourceMap: true,
  sourcesContent: false,
  banner: BANNER,
  external: [],
} as const;

/** CDK bundles ESM to this name, so `npm run build` does too. */
export const OUTPUT_FILE = 'index.mjs';

export const cdkBundling = (): BundlingOptions => ({
  target: BUNDLE.target,
  format: OutputFormat.ESM,
  minify: BUNDLE.minify,
  mainFields: [...BUNDLE.mainFields],
  sourceMap: BUNDLE.sourceMap,
  sourcesContent: BUNDLE.sourcesContent,
  banner: BUNDLE.banner,
  externalModules: [...BUNDLE.external],
  // esbuild's per-file size report, 21 times over, would bury synth's own output.
  logLevel: LogLevel.WARNING,
});

export const esbuildOptions = (entry: string, outfile: string): BuildOptions => ({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  target: BUNDLE.target,
  format: 'esm',
  minify: BUNDLE.minify,
  mainFields: [...BUNDLE.mainFields],
  sourcemap: BUNDLE.sourceMap,
  sourcesContent: BUNDLE.sourcesContent,
  banner: { js: BUNDLE.banner },
  external: [...BUNDLE.external],
  logLevel: 'warning',
});
