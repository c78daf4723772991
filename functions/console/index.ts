import { readFile } from 'node:fs/promises';
import type { ConsoleAsset } from '#lib/console-site/console-site.ts';
import { createConsoleHandler } from './console-handler.ts';

/** esbuild's browser build of console/ ships beside this bundle (infra/bundling.ts, `functionFiles`). */
const ASSET_DIR = new URL('./console/', import.meta.url);

const loaded = new Map<ConsoleAsset, Promise<Buffer>>();

/** Read once per container: the files never change while it lives. */
const readAsset = (asset: ConsoleAsset): Promise<Buffer> => {
  let body = loaded.get(asset);
  if (!body) {
    body = readFile(new URL(asset, ASSET_DIR));
    loaded.set(asset, body);
  }
  return body;
};

export const handler = createConsoleHandler(readAsset);
