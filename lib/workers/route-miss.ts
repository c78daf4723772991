import { corsSettings } from '#lib/ports/cors-need.ts';
import type { FunctionDeclaration } from '#lib/ports/need.ts';

/**
 * What the API's catch-all invokes: a request for a method or a path outside the route table, which API
 * Gateway would otherwise refuse as a 403 "Missing Authentication Token". It needs no table or caller,
 * only the allowed origins, so a browser can read why its request went nowhere.
 */
export const routeMiss: FunctionDeclaration = {
  name: 'route-miss',
  description: 'Answers a method or path outside the route table: 405 with Allow, or 404 naming the nearest route',
  needs: [corsSettings],
};

/** The route table's paths, written beside the function's bundle (infra/bundling.ts) for it to read. */
export const ROUTE_MISS_ROUTES_FILE = 'routes.json';
