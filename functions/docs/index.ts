import { createGroupHandler } from '#lib/app/group-handler.ts';
import { type DocsAsset, readDocsAsset } from '#lib/api-docs/docs-assets.ts';
import { readDocsFile } from '#lib/api-docs/docs-files.ts';
import { docsPage } from '#lib/api-docs/docs-page.ts';
import { binary } from '#lib/http/envelope.ts';
import { docs } from '#lib/routes/docs.ts';
import { HTML_TYPE, JSON_TYPE, TEXT_TYPE, contentTypeOf } from '#lib/http/content-types.ts';

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

const asset = async (name: DocsAsset) => binary(contentTypeOf(name), await readDocsAsset(name), CACHED);

export const handler = createGroupHandler(docs, {
  getOpenApiDocument: async () => binary(JSON_TYPE, await openApiDocument()),
  getDocsPage: async () => binary(HTML_TYPE, page),
  getDocsScript: () => asset('swagger-ui-bundle.js'),
  getDocsStylesheet: () => asset('swagger-ui.css'),
  getDocsFile: async ({ params }) => binary(TEXT_TYPE, await readDocsFile('', params.page)),
  getSpecFile: async ({ params }) => binary(TEXT_TYPE, await readDocsFile('spec/', params.page)),
});
