import { readFileSync } from 'node:fs';
import { buildOpenApiDocument } from '#lib/http/openapi.ts';
import { ROUTE_GROUPS } from '#lib/routes/index.ts';

/** The service's OpenAPI document: the route table, with docs/decisions.md as its description. */
export const serviceOpenApiDocument = () =>
  buildOpenApiDocument(ROUTE_GROUPS, readFileSync(new URL('../../docs/decisions.md', import.meta.url), 'utf8'));
