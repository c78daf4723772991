import type { APIGatewayProxyEvent } from 'aws-lambda';

const API_PREFIX = '/api/v1/';
const EXECUTE_API_HOST = /\.execute-api\.[a-z0-9-]+\.amazonaws\.com(\.cn)?(:\d+)?$/i;

const firstValue = (header: string | undefined): string | undefined => header?.split(',')[0]?.trim() || undefined;

/**
 * The API's address as the caller reached it, without `/api/v1`: for URLs the service hands out (a
 * heartbeat's ping URL) that must reach the same deployment. On API Gateway's own host the stage is in
 * `requestContext.path` only; on a custom domain `event.path` keeps the base-path mapping; locally it is
 * the path itself. Headers are in lower case (the normalizeHeaders middleware).
 */
export const apiBaseUrl = (event: APIGatewayProxyEvent, headers: Record<string, string>): string => {
  const host = firstValue(headers.host) ?? event.requestContext.domainName ?? 'localhost';
  const protocol = firstValue(headers['x-forwarded-proto']) ?? 'http';
  const requestPath = EXECUTE_API_HOST.test(host) ? event.requestContext.path : event.path;
  const at = requestPath.indexOf(API_PREFIX);
  return `${protocol}://${host}${at > 0 ? requestPath.slice(0, at) : ''}`;
};
