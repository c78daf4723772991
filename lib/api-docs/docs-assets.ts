import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/**
 * The Swagger UI files the docs page loads, served by the docs function itself (no CDN): the package's
 * prebuilt browser bundle and stylesheet, as published.
 */
export const DOCS_ASSETS = ['swagger-ui-bundle.js', 'swagger-ui.css'] as const;
export type DocsAsset = (typeof DOCS_ASSETS)[number];

/** What the deployed bundle ships beside `index.mjs` (infra/bundling.ts), so resolving works there as here. */
export const DOCS_ASSET_PACKAGE = 'swagger-ui-dist';

const resolve = createRequire(import.meta.url).resolve;
const loaded = new Map<DocsAsset, Promise<Buffer>>();

/** Read once per container: the files never change while it lives. */
export const readDocsAsset = (asset: DocsAsset): Promise<Buffer> => {
  let body = loaded.get(asset);
  if (!body) {
    body = readFile(resolve(`${DOCS_ASSET_PACKAGE}/${asset}`));
    loaded.set(asset, body);
  }
  return body;
};
