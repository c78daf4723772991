import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions, Metafile } from 'esbuild';
import { DOCS_ASSET_PACKAGE, DOCS_ASSETS } from '#lib/api-docs/docs-assets.ts';
import { DOCS_FOLDERS } from '#lib/api-docs/docs-files.ts';
import { knownRoutes } from '#lib/routes/index.ts';
import { ROUTE_MISS_ROUTES_FILE, routeMiss } from '#lib/workers/route-miss.ts';
import { writeConsoleAssets } from './console-build.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
const FUNCTIONS_DIR = join(PROJECT_ROOT, 'functions');

/** Every function, one per route group plus the workers, lives at `functions/<name>/index.ts`. */
export const functionEntry = (name: string): string => join(FUNCTIONS_DIR, name, 'index.ts');

/** Every function under functions/, by folder name. */
export const functionNames = (): string[] =>
  readdirSync(FUNCTIONS_DIR).filter((name) => existsSync(functionEntry(name)));

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

const ENTRY_NAME = 'index';

/** The file the Lambda runtime imports; chunks sit beside it in `chunks/`. */
export const OUTPUT_FILE = `${ENTRY_NAME}.mjs`;

/** Every function exports `handler` from its entry file. */
export const LAMBDA_HANDLER = `${ENTRY_NAME}.handler`;

/**
 * One description of a function bundle, for CDK and for `npm run build`:
 * - the AWS SDK is bundled, not taken from the runtime: minified ESM imports faster than the runtime's
 *   CommonJS copy (STACK-NOTES, Bundles) and the version is the one we tested;
 * - `module` first picks dependencies' ESM builds, which tree-shake;
 * - split: what a function reaches only through a dynamic `import()` (an SDK client built on first use,
 *   the PDF renderer and its fonts) is a chunk beside the entry, loaded when first asked for, so the
 *   cold start imports only the entry file;
 * - source maps without sources: stack traces get real file and line, the asset stays small.
 *   They only apply with `NODE_OPTIONS=--enable-source-maps`, which the function construct sets.
 */
export const esbuildOptions = (entry: string, outdir: string): BuildOptions => ({
  entryPoints: { [ENTRY_NAME]: entry },
  outdir,
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  target: TARGET,
  format: 'esm',
  minify: true,
  mainFields: ['module', 'main'],
  sourcemap: true,
  sourcesContent: false,
  banner: { js: BANNER },
  logLevel: 'warning',
});

/**
 * The output files a cold start loads: the entry and, transitively, the chunks it imports statically
 * (esbuild moves code the entry shares with a lazy chunk into such chunks). Paths as the metafile has them.
 */
export const coldStartFiles = ({ outputs }: Metafile, entryOutput: string): Set<string> => {
  const loaded = new Set<string>();
  const visit = (file: string): void => {
    if (loaded.has(file)) return;
    loaded.add(file);
    for (const imported of outputs[file]?.imports ?? []) if (imported.kind === 'import-statement') visit(imported.path);
  };
  visit(entryOutput);
  return loaded;
};

/**
 * Files a function reads at run time from a package rather than bundling them (the docs page's browser
 * bundle is served as a file, never run here). They ship beside the bundle under `node_modules/`, so
 * `require.resolve` finds them in Lambda exactly as it does from the repository.
 */
const PACKAGE_FILES: Record<string, readonly string[]> = {
  docs: ['package.json', ...DOCS_ASSETS].map((file) => `${DOCS_ASSET_PACKAGE}/${file}`),
};

const resolveFromProject = createRequire(join(PROJECT_ROOT, 'package.json')).resolve;

export const copyPackageFiles = (name: string, outdir: string): void => {
  for (const file of PACKAGE_FILES[name] ?? []) {
    const target = join(outdir, 'node_modules', file);
    mkdirSync(dirname(target), { recursive: true });
    cpSync(resolveFromProject(file), target);
  }
};

/** The Markdown pages the docs function serves (lib/api-docs/docs-files.ts), under `docs/` as in the repository. */
const copyDocsPages = (outdir: string): void => {
  for (const folder of DOCS_FOLDERS) {
    const from = join(PROJECT_ROOT, 'docs', folder);
    mkdirSync(join(outdir, 'docs', folder), { recursive: true });
    for (const page of readdirSync(from).filter((file) => file.endsWith('.md'))) {
      cpSync(join(from, page), join(outdir, 'docs', folder, page));
    }
  }
};

/**
 * Everything a function reads at run time besides its code: the package files above, for the docs function
 * the documentation's pages, for the console function the console's browser build under `console/`
 * (functions/console/index.ts reads it there), and for the route-miss function the route table's methods
 * and paths (functions/route-miss/index.ts).
 */
export const functionFiles = (name: string, outdir: string): void => {
  copyPackageFiles(name, outdir);
  if (name === 'docs') copyDocsPages(outdir);
  if (name === 'console') writeConsoleAssets(join(outdir, 'console'));
  if (name === routeMiss.name) writeFileSync(join(outdir, ROUTE_MISS_ROUTES_FILE), JSON.stringify(knownRoutes()));
};
