import type { z } from 'zod/mini';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ROLES, type KeyScope, type Role } from '#lib/identity/caller.ts';
import type { AccountScope, Scope } from '#lib/identity/scope.ts';
import type { FunctionDeclaration, PortNeed } from '#lib/ports/need.ts';
import { rateLimitSettings } from '#lib/ports/rate-limits-need.ts';
import { limiterCounters } from '#lib/ports/table/table-needs.ts';
import { corsSettings } from '#lib/ports/cors-need.ts';

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * How a route authenticates its caller:
 * - `public`: no credentials.
 * - `optionalBearer`: no credentials needed, but a Bearer token, when sent, must be valid and names the
 *   caller (accept-invite, where it proves the invited address's existing account).
 * - `bearer`: an access token only (API-key management, business, IMS, integrations connect).
 * - `account`: an access token of an account that may not have a workspace yet (business setup).
 * - `bearerOrApiKey`: either credential; the key needs the route's scope.
 * - `apiKey`: ingestion; `X-API-Key`, `?apiKey=` (or `?api_key=`) or `Authorization: ApiKey`, and Bearer is refused.
 */
export type AuthMode = 'public' | 'optionalBearer' | 'bearer' | 'account' | 'bearerOrApiKey' | 'apiKey';

/**
 * What a route does to the workspace, which decides the roles allowed (DECISIONS.md, Accounts):
 * `read` every role, `write` ADMIN and ENGINEER, `admin` (workspace administration) ADMIN only.
 */
export type Access = 'read' | 'write' | 'admin';

const ROLES_BY_ACCESS: Record<Access, readonly Role[]> = {
  read: ROLES,
  write: ['ADMIN', 'ENGINEER'],
  admin: ['ADMIN'],
};

export const rolesFor = (access: Access): readonly Role[] => ROLES_BY_ACCESS[access];

/** Which limiter besides the global one guards a route (DECISIONS.md, Limits). */
type RouteLimiter = 'login' | 'email';

interface RouteRequestSchemas {
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
}

/**
 * What a route answers on success: the single source of its OpenAPI responses, and what the HTTP tests
 * check every real response against (test/support/response-contract.ts).
 */
type RouteResponse =
  | {
      status: 200 | 201 | 202;
      /** Other success statuses answering the same shape, each with when (a signal queued, not stored: 202). */
      otherStatuses?: Readonly<Partial<Record<200 | 201 | 202, string>>>;
      /** The envelope's `data`. */
      data: z.ZodMiniType;
      /** The members beside `data` (`meta`, `page` and `total`, `pagination`), as one object schema. */
      extra?: z.ZodMiniObject;
    }
  /** A body that is not our envelope: a file, or a foreign API's own JSON (the paging-tool event APIs). */
  | { status: 200 | 202; contentType: string };

export interface RouteSpec {
  method: HttpMethod;
  /** Express-style path, `:name` for a parameter. */
  path: string;
  summary: string;
  /** Longer Markdown for the OpenAPI operation, where the summary cannot say enough. */
  description?: string;
  auth: AuthMode;
  /** Scope an API key needs; Bearer callers are governed by `roles`. */
  scope?: KeyScope;
  /** Required for every route but `public` ones; see `Access`. */
  access?: Access;
  limiter?: RouteLimiter;
  request?: RouteRequestSchemas;
  /** Every new route declares it; routes built before it existed answer an undeclared 2XX until described. */
  response?: RouteResponse;
  /** Error statuses beyond the common ones that this route answers, for its OpenAPI responses. */
  moreErrors?: readonly (422 | 502)[];
  /** The body is form-encoded (`a=1&b=2`), as a chat app's interaction is: left unparsed, read from `rawBody`. */
  formBody?: true;
  /** Largest accepted body in bytes; the default is 1 MiB. */
  maxBodyBytes?: number;
  /**
   * The body member listing items the service validates one by one (a bulk post), so a bad item never
   * rejects its neighbours: a key that would replace a prototype inside an item is left, as an own property,
   * for that item's validation to refuse (lib/contract/prototype-keys.ts), where any other body is refused.
   */
  itemsValidatedAlone?: string;
}

/** An endpoint group: one Lambda (named like the group and its `functions/` folder) serving its routes. */
export interface RouteGroup<R extends Record<string, RouteSpec> = Record<string, RouteSpec>>
  extends FunctionDeclaration {
  routes: R;
}

/** Every route is rate limited, which counts in the table's limiter windows, and answers allowed origins. */
const ROUTE_NEEDS: readonly PortNeed[] = [rateLimitSettings, corsSettings, limiterCounters];

const API_KEY_MODES: readonly AuthMode[] = ['bearerOrApiKey', 'apiKey'];

/** A route that takes API keys: its method requires a usage-plan key, which the gateway's authorizer names. */
export const takesApiKeys = (route: Pick<RouteSpec, 'auth'>): boolean => API_KEY_MODES.includes(route.auth);

/** A group as declared, plus what every route group needs, and what a group taking API keys needs. */
export const defineGroup = <const R extends Record<string, RouteSpec>>(group: RouteGroup<R>): RouteGroup<R> => {
  return { ...group, needs: [...(group.needs ?? []), ...ROUTE_NEEDS] };
};

type Infer<S> = S extends z.ZodMiniType ? z.output<S> : undefined;

export interface RouteRequest<R extends RouteSpec = RouteSpec> {
  params: Infer<NonNullable<R['request']>['params']>;
  query: Infer<NonNullable<R['request']>['query']>;
  body: Infer<NonNullable<R['request']>['body']>;
  headers: Record<string, string>;
  /** What services get: the caller's workspace, the caller and the ports; reading it without a workspace is a 403. */
  scope: Scope;
  /** For routes that run before a workspace exists: the caller and the ports. */
  accountScope: AccountScope;
  requestId: string;
  sourceIp: string;
  event: APIGatewayProxyEvent;
  /** The body text as received, before JSON parsing: what webhook signatures are computed over; null without a body. */
  rawBody: string | null;
}

export interface JsonResult {
  kind: 'json';
  status: number;
  message: string;
  data: unknown;
  /** Fields placed beside `data` in the envelope, such as `meta` or `pagination`. */
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export interface BinaryResult {
  kind: 'binary';
  status: number;
  contentType: string;
  body: Buffer;
  headers?: Record<string, string>;
}

export type RouteResult = JsonResult | BinaryResult;

export type RouteHandler<R extends RouteSpec = RouteSpec> = (request: RouteRequest<R>) => Promise<RouteResult>;

/** A handler for every route of a group: a route without one does not compile. */
export type RouteHandlers<G extends RouteGroup> = {
  [K in keyof G['routes']]: RouteHandler<G['routes'][K]>;
};
