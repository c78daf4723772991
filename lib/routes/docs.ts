import { docsFileParams } from '#lib/api-docs/docs-files.ts';
import { defineGroup } from '#lib/http/route.ts';

/**
 * Its own function: the document and the Swagger UI bundle are megabytes, which no other group should
 * carry, and none of it needs the table or a caller.
 */
export const docs = defineGroup({
  name: 'docs',
  description: 'The OpenAPI document of this API and a page to read it.',
  needs: [],
  routes: {
    getOpenApiDocument: {
      method: 'GET',
      path: '/api/v1/openapi.json',
      summary: 'The OpenAPI 3.1 document of this API',
      auth: 'public',
      response: { status: 200, contentType: 'application/json' },
    },
    getDocsPage: {
      method: 'GET',
      path: '/api/v1/docs',
      summary: 'A page to read and try the API (Swagger UI, served from here, no CDN)',
      auth: 'public',
      response: { status: 200, contentType: 'text/html' },
    },
    getDocsScript: {
      method: 'GET',
      path: '/api/v1/docs/swagger-ui-bundle.js',
      summary: "The docs page's script",
      auth: 'public',
      response: { status: 200, contentType: 'application/javascript' },
    },
    getDocsStylesheet: {
      method: 'GET',
      path: '/api/v1/docs/swagger-ui.css',
      summary: "The docs page's stylesheet",
      auth: 'public',
      response: { status: 200, contentType: 'text/css' },
    },
    getDocsFile: {
      method: 'GET',
      path: '/api/v1/docs/:page',
      summary:
        "A page of the project's documentation (docs/<page>), as Markdown text: the decisions and what they link",
      auth: 'public',
      request: { params: docsFileParams },
      response: { status: 200, contentType: 'text/plain' },
    },
    getSpecFile: {
      method: 'GET',
      path: '/api/v1/docs/spec/:page',
      summary: 'A page of the specification (docs/spec/<page>), as Markdown text',
      auth: 'public',
      request: { params: docsFileParams },
      response: { status: 200, contentType: 'text/plain' },
    },
  },
});
