import type { APIGatewayProxyResult } from 'aws-lambda';
import { genericErrorPage, htmlErrorResponse } from './html-error-page.ts';
import { errorResponse } from './response.ts';
import { createRouteMatcher, isParameter, type RoutePath, splitPath } from './route-matcher.ts';

/** Every path of the API starts here; a request without it most likely left it out. */
const API_PREFIX = ['api', 'v1'];

/**
 * The most a route may differ from the request and still be named as the one it probably meant: about
 * one segment half wrong (a typo, a plural, a sender named by its product), never two unrelated ones.
 */
const NEAREST_MAX_COST = 0.6;
/** A route of another method is named only when no route of the request's method is as near. */
const OTHER_METHOD_COST = 0.3;
/** Adding the missing `/api/v1` is a likely fix, but a path that needs nothing added is nearer. */
const PREFIX_ADDED_COST = 0.1;
/** Two segments sharing a word's stem (`alertmanager`, `metrics-alerts`): related, not the same. */
const SHARED_STEM_COST = 0.5;
const STEM_LENGTH = 5;

const editDistance = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
};

const words = (segment: string): string[] => segment.split(/[-_.]/).filter((word) => word.length >= STEM_LENGTH);

const sharesStem = (a: string, b: string): boolean =>
  words(a).some((left) => words(b).some((right) => left.slice(0, STEM_LENGTH) === right.slice(0, STEM_LENGTH)));

/** 0 for the same segment (or a parameter, which takes any), up to 1 for nothing alike. */
const segmentCost = (requested: string, known: string): number => {
  if (isParameter(known) || requested.toLowerCase() === known) return 0;
  const spelling = editDistance(requested.toLowerCase(), known) / Math.max(requested.length, known.length);
  return Math.min(spelling, sharesStem(requested.toLowerCase(), known) ? SHARED_STEM_COST : 1);
};

/** The segments after whatever part of a prefix the request gave (`/api`, `/v1`, `/api/v2`). */
const afterPrefix = (segments: readonly string[]): string[] => {
  const rest = segments[0] === 'api' ? segments.slice(1) : [...segments];
  return /^v\d+$/.test(rest[0] ?? '') ? rest.slice(1) : rest;
};

/** The request's segments as given and, unless it has the prefix, with `/api/v1` put in front. */
const readings = (path: string): { segments: string[]; cost: number }[] => {
  const segments = splitPath(path);
  if (segments[0] === API_PREFIX[0] && segments[1] === API_PREFIX[1]) return [{ segments, cost: 0 }];
  return [
    { segments, cost: 0 },
    { segments: [...API_PREFIX, ...afterPrefix(segments)], cost: PREFIX_ADDED_COST },
  ];
};

/** The route a request for `method path` probably meant, or undefined when none is near enough. */
const nearestRoute = <R extends RoutePath>(routes: readonly R[], method: string, path: string): R | undefined => {
  let best: { route: R; cost: number } | undefined;
  for (const { segments, cost: readingCost } of readings(path)) {
    for (const route of routes) {
      const known = splitPath(route.path);
      if (known.length !== segments.length) continue;
      const cost =
        readingCost +
        (route.method === method.toUpperCase() ? 0 : OTHER_METHOD_COST) +
        known.reduce((sum, segment, index) => sum + segmentCost(segments[index] ?? '', segment), 0);
      if (cost <= NEAREST_MAX_COST && (!best || cost < best.cost)) best = { route, cost };
    }
  }
  return best?.route;
};

/** A route as the catch-all knows it: its group, method and path (API Gateway's `{id}` form, as the docs show it). */
export interface KnownRoute {
  group: string;
  route: RoutePath;
}

/**
 * The answer to a request no route takes, in the error envelope: a path the API has, asked with another
 * method, is a 405 whose `Allow` lists the methods it has; any other path is a 404 that names the route
 * the request probably meant. The local gateway and, in AWS, the route-miss function behind the API's
 * catch-all both answer with it, from the same route table. A browser's GET of a path outside the API (a
 * console address cut or mistyped) is a person reading: the same 404 as a page, with a way back to the console.
 */
export const createRouteMiss = (known: readonly KnownRoute[]) => {
  const matcher = createRouteMatcher(known);
  const routes = known.map(({ route }) => route);
  return ({
    method,
    path,
    requestId,
    accept = '',
  }: {
    method: string;
    path: string;
    requestId: string;
    accept?: string | undefined;
  }): APIGatewayProxyResult => {
    if (method === 'GET' && !path.startsWith('/api/') && accept.includes('text/html')) {
      return htmlErrorResponse(404, genericErrorPage(404, path), requestId);
    }
    const allowed = matcher.methodsAt(path);
    if (allowed.length > 0) {
      const allow = [...new Set(allowed)].join(', ');
      const message = `Method ${method} not allowed on ${path}; it accepts ${allow}`;
      return errorResponse(405, message, [], requestId, { allow });
    }
    const nearest = nearestRoute(routes, method, path);
    const hint = nearest ? `; did you mean ${nearest.method} ${nearest.path}?` : '';
    return errorResponse(404, `Route not found: ${method} ${path}${hint}`, [], requestId);
  };
};
