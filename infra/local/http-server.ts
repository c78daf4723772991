import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { errorResponse, resultResponse } from '#lib/http/response.ts';
import { ok } from '#lib/http/envelope.ts';
import type { GatewayHandler } from '#lib/http/group-handler.ts';
import { log } from '#lib/log/logger.ts';
import { buildGatewayEvent } from './gateway-event.ts';
import { invokeWithin } from './lambda-context.ts';
import { answerIsDecoded } from './gateway-binary.ts';
import { functionTimeoutSeconds } from '../function-timeouts.ts';
import type { LocalMetrics } from './local-metrics.ts';
import type { MemoryReport } from './local-memory.ts';
import type { LocalHealth } from './local-health.ts';
import type { Mailbox } from './mailbox.ts';
import type { ChatStandIn } from './chat-stand-in.ts';
import type { PushServiceStandIn } from './push-service-stand-in.ts';
import type { SmsOutbox } from './sms-outbox.ts';
import { authorizeAtGateway } from './gateway-authorizer.ts';
import type { LocalUsagePlan } from './local-usage-plan.ts';
import type { RequestsInFlight } from './requests-in-flight.ts';
import { takesApiKeys } from '#lib/http/route.ts';
import type { RouteMatcher } from '#lib/http/route-matcher.ts';
import type { createRouteMiss } from '#lib/http/route-miss.ts';
import { withSecurityHeaders } from '#lib/http/security-headers.ts';
import { corsHeaders, preflightHeaders } from '#lib/http/cors.ts';

/** API Gateway's own limit on a request's payload: 413 above it. */
const GATEWAY_PAYLOAD_LIMIT = 10 * 1024 * 1024;
/**
 * Lambda's limit on a synchronous invocation's event and on its answer, in bytes as its error message names
 * it: the event is the body (base64, lib/http/binary-media-types.ts) with headers and context, as JSON.
 */
const INVOCATION_PAYLOAD_LIMIT = 6_291_556;
/** How long an idle client connection stays open: longer than clients keep theirs. */
const IDLE_CONNECTION_MS = 30_000;

/** API Gateway's integration timeout: a function allowed longer is cut off here. */
const INTEGRATION_TIMEOUT_MS = 29_000;
/**
 * The longest the mailbox waits for the mail queue to drain. A refused message waits out its visibility
 * timeout before the next try; the mailbox then answers what has arrived, as a real inbox would.
 */
const MAIL_QUEUE_WAIT_MS = 10_000;

export interface LocalHttpOptions {
  routes: RouteMatcher;
  /** The answer to a method or path no route takes, as the stack's catch-all and its function give it. */
  routeMiss: ReturnType<typeof createRouteMiss>;
  handlers: ReadonlyMap<string, GatewayHandler>;
  mailbox: Mailbox;
  /** The usage plan the gateway enforces on methods that require an API key. */
  usagePlan: LocalUsagePlan;
  now: () => Date;
  metrics: LocalMetrics;
  /** The process's resident memory and each thread's heap, reported with the metrics. */
  memory: () => Promise<MemoryReport>;
  health: LocalHealth;
  /** Resolves once the mail queue is empty and no delivery is running. */
  mailQueueIdle: () => Promise<void>;
  smsOutbox: SmsOutbox;
  /** The push service stand-in under `/_local/push/` (push-service-stand-in.ts). */
  pushService?: PushServiceStandIn;
  /** The chat app stand-in under `/_local/chat/` (chat-stand-in.ts). */
  chatApp?: ChatStandIn;
  /** Resolves once the notification worker has sent what was queued. */
  notificationsIdle: () => Promise<void>;
  /** Origins the gateway answers preflights for, as the stack's OPTIONS methods do; none: no OPTIONS methods. */
  allowedOrigins: readonly string[];
  /** The web console's answer to a GET of a path, as the stack's console function gives it; undefined: not its path. */
  console?: (path: string, requestId: string) => Promise<APIGatewayProxyResult | undefined>;
  /** Told of each route function's invocation, which the correlation trigger yields to. */
  inFlight?: RequestsInFlight;
}

/** The body, or undefined when it exceeds the gateway's limit; read to the end either way so the connection stays usable. */
const readBody = async (request: IncomingMessage): Promise<Buffer | undefined> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size <= GATEWAY_PAYLOAD_LIMIT) chunks.push(chunk as Buffer);
  }
  return size > GATEWAY_PAYLOAD_LIMIT ? undefined : Buffer.concat(chunks);
};

/** `decode`: whether the gateway turns a base64 answer into bytes for this client (gateway-binary.ts). */
const send = (response: ServerResponse, result: APIGatewayProxyResult, decode = true): void => {
  response.statusCode = result.statusCode;
  for (const [name, value] of Object.entries(result.headers ?? {})) response.setHeader(name, String(value));
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {}))
    response.setHeader(name, values.map(String));
  response.end(Buffer.from(result.body, result.isBase64Encoded && decode ? 'base64' : 'utf8'));
};

/** What API Gateway answers when the function fails (a timeout, an answer over the limit): 502, reshaped. */
const functionFailed = (group: string, requestId: string, error: unknown): APIGatewayProxyResult => {
  log.error('the function failed; the gateway answers 502', { group, error });
  return errorResponse(502, 'Internal server error', [], requestId);
};

/**
 * `GET /_local/mailbox?to=`: the mail the service sent, so a person or a test can read codes and tokens.
 * Mail goes through the outbox, so it answers once the mail worker has delivered what was queued: a
 * message shows right after the request that caused it, as the README's walk-through expects.
 */
const mailboxResponse = async (
  url: URL,
  { mailbox, mailQueueIdle }: LocalHttpOptions,
  requestId: string,
): Promise<APIGatewayProxyResult> => {
  const to = url.searchParams.get('to');
  if (!to) return errorResponse(400, 'Validation failed', ['to: Required'], requestId);
  await Promise.race([mailQueueIdle(), delay(MAIL_QUEUE_WAIT_MS, undefined, { ref: false })]);
  return resultResponse(ok(mailbox.messagesTo(to)), requestId);
};

/** `GET /_local/sms?to=`: the text messages the service sent to a number, once queued notifications are out. */
const smsResponse = async (
  url: URL,
  { smsOutbox, notificationsIdle }: LocalHttpOptions,
  requestId: string,
): Promise<APIGatewayProxyResult> => {
  const to = url.searchParams.get('to');
  if (!to) return errorResponse(400, 'Validation failed', ['to: Required'], requestId);
  await Promise.race([notificationsIdle(), delay(MAIL_QUEUE_WAIT_MS, undefined, { ref: false })]);
  return resultResponse(ok(smsOutbox.messagesTo(to)), requestId);
};

/**
 * The local stand-in for API Gateway: resolves the route from the one route table, builds the REST
 * proxy event AWS would build and calls the group's handler, as API Gateway invokes its Lambda.
 */
export const createLocalHttpServer = (options: LocalHttpOptions): Server => {
  const serve = serveWith(options);
  const server = createServer((request, response) => {
    void serve(request, response).catch((error: unknown) => {
      log.error('local gateway failed', { error });
      if (!response.headersSent) send(response, errorResponse(500, 'Internal server error', [], randomUUID()));
    });
  });
  // Clients keep idle connections for about 4 s (fetch's default). Node's 5 s here left a window, widened
  // on a busy machine, where a client reused a connection the server was closing: ECONNRESET on a request
  // that had done nothing wrong. Idle connections are now the client's to close; a stop still closes them.
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  return server;
};

const serveWith =
  (options: LocalHttpOptions) =>
  async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const { routes, handlers, allowedOrigins, metrics, health, usagePlan, now } = options;
    const url = new URL(request.url ?? '/', 'http://localhost');
    const origin = request.headers.origin;
    // The gateway's own answers carry the CORS and security headers, as its gateway responses do in AWS.
    const forwarded = { headers: request.headers as Record<string, string> };
    const gatewayAnswer = (result: APIGatewayProxyResult): void =>
      send(
        response,
        withSecurityHeaders(forwarded, {
          ...result,
          headers: { ...result.headers, ...corsHeaders(allowedOrigins, origin) },
        }),
      );
    const body = await readBody(request);
    if (!body) {
      gatewayAnswer(errorResponse(413, 'Request body too large', [], randomUUID()));
      return;
    }
    if (request.method === 'GET' && url.pathname === '/_local/mailbox') {
      send(response, await mailboxResponse(url, options, randomUUID()));
      return;
    }
    if (options.pushService && url.pathname.startsWith('/_local/push/')) {
      // What arrived is read once the queued notifications are out, as for the SMS outbox.
      if (request.method === 'GET') {
        await Promise.race([options.notificationsIdle(), delay(MAIL_QUEUE_WAIT_MS, undefined, { ref: false })]);
      }
      const headers = request.headers as Record<string, string | undefined>;
      const answer = options.pushService.handle(request.method ?? 'GET', url.pathname, headers, body);
      if (answer) {
        send(response, answer);
        return;
      }
    }
    if (options.chatApp && url.pathname.startsWith('/_local/chat/')) {
      // What a hook got is read once the queued notifications are out, as for the push stand-in.
      if (request.method === 'GET') {
        await Promise.race([options.notificationsIdle(), delay(MAIL_QUEUE_WAIT_MS, undefined, { ref: false })]);
      }
      const headers = request.headers as Record<string, string | undefined>;
      const answer = await options.chatApp.handle(request.method ?? 'GET', url.pathname, headers, body);
      if (answer) {
        send(response, answer);
        return;
      }
    }
    if (request.method === 'GET' && url.pathname === '/_local/sms') {
      send(response, await smsResponse(url, options, randomUUID()));
      return;
    }
    if (request.method === 'GET' && url.pathname === '/_local/metrics') {
      send(
        response,
        resultResponse(
          ok({ ...metrics.snapshot(), memory: await options.memory(), health: await health.snapshot() }),
          randomUUID(),
        ),
      );
      return;
    }
    if (request.method === 'GET' && options.console) {
      const page = await options.console(url.pathname, randomUUID());
      if (page) {
        send(response, withSecurityHeaders(forwarded, page));
        return;
      }
    }
    const methods = routes.methodsAt(url.pathname);
    if (request.method === 'OPTIONS' && allowedOrigins.length > 0 && methods.length > 0) {
      send(response, { statusCode: 204, headers: preflightHeaders(allowedOrigins, origin, methods), body: '' });
      return;
    }
    const match = routes.match(request.method ?? 'GET', url.pathname);
    const handler = match && handlers.get(match.group);
    if (!match || !handler) {
      gatewayAnswer(
        options.routeMiss({
          method: request.method ?? 'GET',
          path: url.pathname,
          requestId: randomUUID(),
          accept: request.headers.accept,
        }),
      );
      return;
    }
    const event = buildGatewayEvent(request, url, body, match);
    const refusal = takesApiKeys(match.spec) ? await authorizeAtGateway(event, usagePlan, now) : undefined;
    if (refusal) {
      gatewayAnswer(refusal);
      return;
    }
    const { requestId } = event.requestContext;
    if (Buffer.byteLength(JSON.stringify(event)) > INVOCATION_PAYLOAD_LIMIT) {
      gatewayAnswer(errorResponse(413, 'Request body too large', [], requestId));
      return;
    }
    const timeoutMs = Math.min(functionTimeoutSeconds(match.group) * 1_000, INTEGRATION_TIMEOUT_MS);
    let result: APIGatewayProxyResult;
    options.inFlight?.begin();
    try {
      result = await invokeWithin(match.group, requestId, timeoutMs, (context) => handler(event, context));
    } catch (error) {
      gatewayAnswer(functionFailed(match.group, requestId, error));
      return;
    } finally {
      options.inFlight?.end();
    }
    if (Buffer.byteLength(JSON.stringify(result)) > INVOCATION_PAYLOAD_LIMIT) {
      gatewayAnswer(functionFailed(match.group, requestId, new Error('the answer is over 6 MB')));
      return;
    }
    send(response, result, answerIsDecoded(request.headers.accept));
  };
