import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, buildSync, type BuildOptions } from 'esbuild';
import { type ConsoleAsset, isConsoleAsset } from '#lib/console-site/console-site.ts';
import { appFiles } from './console-app-files.ts';
const CONSOLE_DIR = fileURLToPath(new URL('../console', import.meta.url));

/**
 * The web console (console/) for the browser: one script and one stylesheet, `app.js` and `app.css`
 * (lib/console-site), minified, with Preact inside, and its service worker, `service-worker.js`. Browsers of the last few years; nothing is loaded from
 * elsewhere at run time.
 */
const consoleBuildOptions = (outdir: string): BuildOptions => ({
  entryPoints: [
    { in: join(CONSOLE_DIR, 'main.tsx'), out: 'app' },
    { in: join(CONSOLE_DIR, 'console.css'), out: 'app' },
    { in: join(CONSOLE_DIR, 'service-worker.ts'), out: 'service-worker' },
  ],
  outdir,
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: ['es2022', 'chrome109', 'firefox115', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});

/** For a function bundle: the files written into `outdir` (CDK's bundling is synchronous). */
export const writeConsoleAssets = (outdir: string): void => {
  buildSync(consoleBuildOptions(outdir));
  for (const [name, body] of appFiles()) writeFileSync(join(outdir, name), body);
};

/** For the local server: the files in memory, built once per process (about a tenth of a second). */
let built: Promise<ReadonlyMap<ConsoleAsset, Buffer>> | undefined;
export const consoleAssetsInMemory = (): Promise<ReadonlyMap<ConsoleAsset, Buffer>> => {
  built ??= build({ ...consoleBuildOptions('/console'), write: false }).then(({ outputFiles }) => {
    const assets = new Map<ConsoleAsset, Buffer>();
    for (const file of outputFiles ?? []) {
      const name = file.path.split('/').pop() ?? '';
      if (isConsoleAsset(name)) assets.set(name, Buffer.from(file.contents));
    }
    for (const [name, body] of appFiles()) assets.set(name, body);
    return assets;
  });
  return built;
};
