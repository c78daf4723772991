import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { CONSOLE_HEADERS, type ConsoleAsset, consolePage, consoleRequest } from '#lib/console-site/console-site.ts';
import { binary } from '#lib/http/envelope.ts';
import { resultResponse } from '#lib/http/response.ts';
import { genericErrorPage, htmlErrorResponse } from '#lib/http/html-error-page.ts';
import { withSecurityHeaders } from '#lib/http/security-headers.ts';
import { HTML_TYPE, contentTypeOf } from '#lib/http/content-types.ts';

/** The built files: read beside the bundle in Lambda, built in memory by the local server. */
export type ReadConsoleAsset = (asset: ConsoleAsset) => Promise<Buffer>;

/**
 * The page must never be stale after a deploy (it names the files), the files briefly may: five minutes in
 * a cache spares the function on every navigation of a night's incident.
 */
const PAGE_CACHE = { 'cache-control': 'no-cache' };
const ASSET_CACHE = { 'cache-control': 'public, max-age=300' };

/** The console's answer to a GET of `path` (below its base), or undefined when it has no such path. */
export const consoleAnswer = async (
  path: string,
  basePath: string,
  read: ReadConsoleAsset,
  requestId: string,
): Promise<APIGatewayProxyResult | undefined> => {
  const wanted = consoleRequest(path);
  if (!wanted) return undefined;
  const result =
    wanted.kind === 'page'
      ? binary(HTML_TYPE, Buffer.from(consolePage(basePath), 'utf8'), {
          ...CONSOLE_HEADERS,
          ...PAGE_CACHE,
        })
      : binary(contentTypeOf(wanted.asset), await read(wanted.asset), { ...CONSOLE_HEADERS, ...ASSET_CACHE });
  return resultResponse(result, requestId);
};

/**
 * Behind API Gateway `event.path` is the resource path and `requestContext.path` the same with the stage
 * (or a custom domain's base path) in front: that prefix is the console's base.
 */
const basePathOf = (event: APIGatewayProxyEvent): string => {
  const full = event.requestContext.path ?? event.path;
  return full.endsWith(event.path) ? full.slice(0, full.length - event.path.length) : '';
};

export const createConsoleHandler =
  (read: ReadConsoleAsset) =>
  async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
    const requestId = event.requestContext.requestId;
    return withSecurityHeaders(
      event,
      (await consoleAnswer(event.path, basePathOf(event), read, requestId)) ??
        htmlErrorResponse(404, genericErrorPage(404, event.path), requestId),
    );
  };
