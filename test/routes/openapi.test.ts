import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { serviceOpenApiDocument } from '#infra/openapi/service-openapi.ts';
import { toGatewayPath } from '#lib/http/route-matcher.ts';
import { allRoutes } from '#lib/routes/index.ts';

type Operations = Record<string, Record<string, { operationId?: string }>>;

const committed = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
// A JSON round trip drops what the file cannot hold (undefined), so both sides compare alike.
const fresh = JSON.parse(JSON.stringify(serviceOpenApiDocument()));

describe('OpenAPI document', () => {
  it('is up to date with the route table', () => {
    expect(committed, 'docs/openapi.json is stale: run npm run openapi').toEqual(fresh);
  });

  it('has an operation for every route', () => {
    const paths = fresh.paths as Operations;
    const missing = allRoutes().filter(
      ({ group, key, route }) =>
        paths[toGatewayPath(route.path)]?.[route.method.toLowerCase()]?.operationId !== `${group}.${key}`,
    );
    expect(missing.map(({ group, key }) => `${group}.${key}`)).toEqual([]);
  });

  it('declares the success response of every route', () => {
    const undeclared = allRoutes().filter(({ route }) => !route.response);
    expect(undeclared.map(({ group, key }) => `${group}.${key}`)).toEqual([]);
  });
});
