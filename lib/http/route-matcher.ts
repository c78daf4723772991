import type { RouteSpec } from './route.ts';

/** `/api/v1/incident-ticket/:id` -> `/api/v1/incident-ticket/{id}`, the form API Gateway uses. */
export const toGatewayPath = (path: string): string => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** What matching needs of a route: its method and its path, `:name` or `{name}` for a parameter. */
export interface RoutePath {
  method: string;
  path: string;
}

export interface RouteMatch<R extends RoutePath = RouteSpec> {
  group: string;
  spec: R;
  resource: string;
  pathParameters: Record<string, string>;
}

interface CompiledRoute<R extends RoutePath> {
  group: string;
  spec: R;
  resource: string;
  segments: string[];
}

export const splitPath = (path: string): string[] => path.split('/').filter((segment) => segment !== '');

/** A parameter segment in either form: the route table's `:id` or API Gateway's `{id}`. */
export const isParameter = (segment: string): boolean => segment.startsWith(':') || segment.startsWith('{');

const parameterName = (segment: string): string => segment.replace(/^[:{]|\}$/g, '');

/**
 * Finds the route for a method and path the way API Gateway picks a resource: segment by segment, a
 * literal segment winning over a parameter (`/incident-ticket/analytics` over `/incident-ticket/:id`).
 */
export const createRouteMatcher = <R extends RoutePath = RouteSpec>(routes: readonly { group: string; route: R }[]) => {
  const compiled: CompiledRoute<R>[] = routes.map(({ group, route }) => ({
    group,
    spec: route,
    resource: toGatewayPath(route.path),
    segments: splitPath(route.path),
  }));

  const matches = (route: CompiledRoute<R>, segments: string[]): boolean =>
    route.segments.length === segments.length &&
    route.segments.every((segment, index) => isParameter(segment) || segment === segments[index]);

  /** Literal segments earlier in the path rank higher, as API Gateway resolves resources. */
  const specificity = (route: CompiledRoute<R>): string =>
    route.segments.map((segment) => (isParameter(segment) ? '0' : '1')).join('');

  /** The routes of the resource a path resolves to, from the path alone, as API Gateway resolves it. */
  const routesAt = (segments: string[]): CompiledRoute<R>[] => {
    const byPath = compiled.filter((route) => matches(route, segments));
    const resource = byPath.sort((a, b) => specificity(b).localeCompare(specificity(a)))[0]?.resource;
    return byPath.filter((route) => route.resource === resource);
  };

  /** The methods of the resource a path resolves to: what a preflight for it may ask for. */
  const methodsAt = (path: string): string[] => routesAt(splitPath(path)).map((route) => route.spec.method);

  /** Resolves the resource from the path alone, then the method on it, as API Gateway does. */
  const match = (method: string, path: string): RouteMatch<R> | undefined => {
    const segments = splitPath(path);
    const best = routesAt(segments).find((route) => route.spec.method === method.toUpperCase());
    if (!best) return undefined;
    const pathParameters: Record<string, string> = {};
    for (const [index, segment] of best.segments.entries()) {
      if (isParameter(segment)) pathParameters[parameterName(segment)] = safeDecode(segments[index] ?? '');
    }
    return { group: best.group, spec: best.spec, resource: best.resource, pathParameters };
  };
  return { match, methodsAt };
};

export type RouteMatcher<R extends RoutePath = RouteSpec> = ReturnType<typeof createRouteMatcher<R>>;

const safeDecode = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};
