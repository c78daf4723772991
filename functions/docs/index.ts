import { createGroupHandler } from '#lib/app/group-handler.ts';
import { DOCS_ASSETS, type DocsAsset, readDocsAsset } from '#lib/api-docs/docs-assets.ts';
import { readDocsFile } from '#lib/api-docs/docs-files.ts';
import { docsPage } from '#lib/api-docs/docs-page.ts';
import { binary } from '#lib/http/envelope.ts';
import { docs } from '#lib/routes/docs.ts';

/** The Swagger UI files change only with a package upgrade; a day in caches spares the function. */
const CACHED = { 'cache-control': 'public, max-age=86400' };

// The page sits at .../api/v1/docs, so its files are under docs/ and the document is its sibling.
const page = Buffer.from(
  docsPage((asset) => `docs/${asset}`, 'openapi.json'),
  'utf8',
);

/** The committed document (test/routes/openapi.test.ts keeps it equal to the route table), loaded on first use. */
let documentBody: Promise<Buffer> | undefined;
const openApiDocument = (): Promise<Buffer> => {
  documentBody ??= import('../../docs/openapi.json', { with: { type: 'json' } }).then(({ default: document }) =>
    Buffer.from(JSON.stringify(document), 'utf8'),
  );
  return documentBody;
};

/**
 * Markdown as plain text, which every browser shows: `text/markdown` is one a browser downloads instead.
 * A page changes only with a deploy, like the document.
 */
const MARKDOWN = 'text/plain; charset=utf-8';

const asset = async (name: DocsAsset) => binary(DOCS_ASSETS[name], await readDocsAsset(name), CACHED);

export const handler = createGroupHandler(docs, {
  getOpenApiDocument: async () => binary('application/json; charset=utf-8', await openApiDocument()),
  getDocsPage: async () => binary('text/html; charset=utf-8', page),
  getDocsScript: () => asset('swagger-ui-bundle.js'),
  getDocsStylesheet: () => asset('swagger-ui.css'),
  getDocsFile: async ({ params }) => binary(MARKDOWN, await readDocsFile('', params.page)),
  getSpecFile: async ({ params }) => binary(MARKDOWN, await readDocsFile('spec/', params.page)),
});
