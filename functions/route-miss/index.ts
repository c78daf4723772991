import { readFile } from 'node:fs/promises';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { corsHeaders } from '#lib/http/cors.ts';
import { withSecurityHeaders } from '#lib/http/security-headers.ts';
import { createRouteMiss, type KnownRoute } from '#lib/http/route-miss.ts';
import { log, withLogScope } from '#lib/log/logger.ts';
import { redactPath } from '#lib/log/redact-path.ts';
import { portsOf } from '#lib/ports/port-set.ts';
import { ROUTE_MISS_ROUTES_FILE, routeMiss } from '#lib/workers/route-miss.ts';

/**
 * The route table's paths ship beside this bundle as a file rather than as the route table itself, whose
 * schemas would make this function's cold start as heavy as a route group's. Read once per container.
 */
let answer: Promise<ReturnType<typeof createRouteMiss>> | undefined;
const loadAnswer = () => {
  answer ??= readFile(new URL(`./${ROUTE_MISS_ROUTES_FILE}`, import.meta.url), 'utf8').then((text) =>
    createRouteMiss(JSON.parse(text) as KnownRoute[]),
  );
  return answer;
};

export const handler = async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
  const { requestId } = event.requestContext;
  return withLogScope(requestId, async () => {
    const accept = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'accept')?.[1];
    const response = (await loadAnswer())({ method: event.httpMethod, path: event.path, requestId, accept });
    const origin = event.headers?.origin ?? event.headers?.Origin;
    log.info('request completed', {
      method: event.httpMethod,
      path: redactPath(event.path),
      status: response.statusCode,
    });
    return withSecurityHeaders(event, {
      ...response,
      headers: { ...response.headers, ...corsHeaders(portsOf(routeMiss).allowedOrigins, origin) },
    });
  });
};
