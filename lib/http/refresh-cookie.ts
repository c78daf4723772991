import type { APIGatewayProxyEvent } from 'aws-lambda';
import { apiBaseUrl } from './api-base-url.ts';

/**
 * The web console's refresh token, in a cookie no script can read (docs/decisions.md, "A console session
 * that survives a new tab"): `HttpOnly` (an injected script cannot take it), `Secure`, `SameSite=Strict` (no
 * other site's page or form sends it) and scoped to the auth routes, so no other request carries it. The
 * access token stays in the page's memory; a new tab or a reload gets one from the refresh route.
 */
const NAME = 'ims_refresh';

/** `/api/v1/auth` below the stage or base path the caller reached the API by. */
const cookiePath = (event: APIGatewayProxyEvent, headers: Record<string, string>): string =>
  `${new URL(apiBaseUrl(event, headers)).pathname.replace(/\/$/, '')}/api/v1/auth`;

export const refreshCookie = (
  event: APIGatewayProxyEvent,
  headers: Record<string, string>,
  refreshToken: string,
  maxAgeSeconds: number,
): string =>
  `${NAME}=${refreshToken}; Path=${cookiePath(event, headers)}; Max-Age=${maxAgeSeconds}; HttpOnly; Secure; SameSite=Strict`;

export const clearedRefreshCookie = (event: APIGatewayProxyEvent, headers: Record<string, string>): string =>
  `${NAME}=; Path=${cookiePath(event, headers)}; Max-Age=0; HttpOnly; Secure; SameSite=Strict`;

/** The refresh token the cookie carries, if the request has it. */
export const refreshTokenFromCookie = (headers: Record<string, string>): string | undefined => {
  for (const part of (headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === NAME && value.join('=') !== '') return value.join('=');
  }
  return undefined;
};
