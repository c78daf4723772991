import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { requestIsBinary } from './gateway-binary.ts';
import type { RouteMatch } from '#lib/http/route-matcher.ts';

const STAGE = 'local';

/**
 * Names and values are collected in a Map, since a client's names (`__proto__`, `constructor`) would find
 * inherited members on a plain object; the event then holds them as own properties, as the JSON API
 * Gateway sends does.
 */
type MultiValues = Map<string, string[]>;

const collect = (pairs: Iterable<readonly [string, string]>): MultiValues => {
  const multi: MultiValues = new Map();
  for (const [name, value] of pairs) {
    const values = multi.get(name);
    if (values) values.push(value);
    else multi.set(name, [value]);
  }
  return multi;
};

const multiValues = (multi: MultiValues): Record<string, string[]> | null =>
  multi.size === 0 ? null : Object.fromEntries(multi);

const singleValues = (multi: MultiValues): Record<string, string> | null =>
  multi.size === 0 ? null : Object.fromEntries([...multi].map(([name, values]) => [name, values.at(-1) ?? '']));

function* headerPairs(request: IncomingMessage): Generator<readonly [string, string]> {
  const raw = request.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) yield [raw[index] ?? '', raw[index + 1] ?? ''];
}

/** The client address as API Gateway reports it: the peer of the connection, without the IPv6 mapping. */
const sourceIpOf = (request: IncomingMessage): string =>
  (request.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');

/**
 * The REST API proxy event API Gateway would send for this request: headers and query in single- and
 * multi-value form, path parameters of the matched resource, the request context with a request id and
 * the source IP, and a base64 body for the API's binary media types.
 */
export const buildGatewayEvent = (
  request: IncomingMessage,
  url: URL,
  body: Buffer,
  match: RouteMatch,
): APIGatewayProxyEvent => {
  const headers = collect(headerPairs(request));
  const query = collect(url.searchParams);
  const binary = requestIsBinary(request.headers['content-type']);
  const now = new Date();
  const requestId = randomUUID();
  const hasPathParameters = Object.keys(match.pathParameters).length > 0;
  return {
    resource: match.resource,
    path: url.pathname,
    httpMethod: match.spec.method,
    headers: singleValues(headers) ?? {},
    multiValueHeaders: multiValues(headers) ?? {},
    queryStringParameters: singleValues(query),
    multiValueQueryStringParameters: multiValues(query),
    pathParameters: hasPathParameters ? match.pathParameters : null,
    stageVariables: null,
    body: body.length === 0 ? null : body.toString(binary ? 'base64' : 'utf8'),
    isBase64Encoded: binary && body.length > 0,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: null,
      protocol: `HTTP/${request.httpVersion}`,
      httpMethod: match.spec.method,
      // Served at the root, as behind a custom domain: no stage segment in front of the path.
      path: url.pathname,
      stage: STAGE,
      requestId,
      extendedRequestId: requestId,
      requestTime: now.toUTCString(),
      requestTimeEpoch: now.getTime(),
      resourceId: 'local',
      resourcePath: match.resource,
      domainName: request.headers.host ?? '127.0.0.1',
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: sourceIpOf(request),
        user: null,
        userAgent: request.headers['user-agent'] ?? null,
        userArn: null,
      },
    },
  };
};
