import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';

/** A year, with subdomains: the API is served over HTTPS only once deployed. */
const HSTS = 'max-age=31536000; includeSubDomains';

const headerOf = (headers: APIGatewayProxyResult['headers'], name: string): string | undefined => {
  const found = Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name);
  return found === undefined ? undefined : String(found[1]);
};

/**
 * The headers every answer carries (docs/security.md, "Headers"): no MIME sniffing, no referrer, and for
 * HTML no framing (X-Frame-Options and CSP frame-ancestors). HSTS only where the request came over HTTPS
 * (API Gateway says so in X-Forwarded-Proto), so the local http server never pins a browser to HTTPS.
 * `Cache-Control: no-store` unless the answer chose its caching: API answers carry tokens (login, refresh,
 * OAuth, API keys) and workspace data that no shared cache should keep.
 */
export const withSecurityHeaders = (
  event: Pick<APIGatewayProxyEvent, 'headers'>,
  response: APIGatewayProxyResult,
): APIGatewayProxyResult => {
  const headers = { ...response.headers };
  const html = (headerOf(headers, 'content-type') ?? '').startsWith('text/html');
  const csp = headerOf(headers, 'content-security-policy');
  const https = Object.entries(event.headers ?? {}).some(
    ([key, value]) => key.toLowerCase() === 'x-forwarded-proto' && value === 'https',
  );
  return {
    ...response,
    headers: {
      ...headers,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      ...(headerOf(headers, 'cache-control') === undefined && { 'cache-control': 'no-store' }),
      ...(html && { 'x-frame-options': 'DENY' }),
      ...(html &&
        !csp?.includes('frame-ancestors') && {
          'content-security-policy': csp ? `${csp}; frame-ancestors 'none'` : "frame-ancestors 'none'",
        }),
      ...(https && { 'strict-transport-security': HSTS }),
    },
  };
};
