import * as z from 'zod/mini';
import { toGatewayPath } from './route-matcher.ts';
import { rolesFor, type AuthMode, type RouteGroup, type RouteSpec } from './route.ts';

type JsonSchema = Record<string, unknown>;
type SecurityRequirement = Record<string, string[]>;

const ERROR_STATUSES = {
  400: 'Malformed or invalid request; `errors` lists field messages',
  401: 'No valid credentials',
  403: 'Valid credentials, insufficient permission',
  404: 'Resource does not exist',
  409: 'Conflict with the current state',
  413: 'Request body too large',
  422: 'Well-formed, but what it asks cannot be done with what the service knows; the message says why',
  429: 'Too many requests, please try again later',
  500: 'Unexpected server error',
  502: "A service called on the caller's behalf failed or refused; the message says which and why",
} as const;
type ErrorStatus = keyof typeof ERROR_STATUSES;

const SECURITY: Record<AuthMode, SecurityRequirement[]> = {
  public: [],
  optionalBearer: [{}, { bearerAuth: [] }],
  bearer: [{ bearerAuth: [] }],
  account: [{ bearerAuth: [] }],
  bearerOrApiKey: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
  apiKey: [{ apiKeyHeader: [] }, { apiKeyQuery: [] }],
};

const jsonResponse = (description: string, schema: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
});

const COMPONENTS = {
  securitySchemes: {
    bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    apiKeyQuery: {
      type: 'apiKey',
      in: 'query',
      name: 'apiKey',
      description:
        'Ingestion routes only, for senders that cannot set headers (`api_key` is taken too); `Authorization: ApiKey <key>` also works.',
    },
  },
  schemas: {
    SuccessEnvelope: {
      type: 'object',
      required: ['success', 'message', 'data'],
      properties: { success: { const: true }, message: { type: 'string' }, data: {} },
    },
    ErrorEnvelope: {
      type: 'object',
      required: ['success', 'message', 'errors'],
      properties: {
        success: { const: false },
        message: { type: 'string' },
        errors: { type: 'array', items: { type: 'string' } },
      },
    },
  },
  responses: {
    Success: jsonResponse('Success', 'SuccessEnvelope'),
    ...Object.fromEntries(
      Object.entries(ERROR_STATUSES).map(([status, description]) => [
        `Error${status}`,
        jsonResponse(description, 'ErrorEnvelope'),
      ]),
    ),
  },
};

const toJsonSchema = (schema: z.ZodMiniType, io: 'input' | 'output' = 'input'): JsonSchema => {
  const jsonSchema = z.toJSONSchema(schema, { io }) as JsonSchema;
  // OpenAPI 3.1 already fixes the dialect for the whole document.
  delete jsonSchema.$schema;
  return jsonSchema;
};

/** One OpenAPI parameter per property of an object schema. */
const parametersOf = (schema: z.ZodMiniType | undefined, location: 'path' | 'query'): Map<string, JsonSchema> => {
  const parameters = new Map<string, JsonSchema>();
  if (!schema) return parameters;
  const { properties = {}, required = [] } = toJsonSchema(schema) as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  for (const [name, property] of Object.entries(properties)) {
    const isRequired = location === 'path' || required.includes(name);
    parameters.set(name, { name, in: location, required: isRequired, schema: property });
  }
  return parameters;
};

const pathParameterNames = (path: string): string[] =>
  [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] ?? '');

const errorStatusesFor = (route: RouteSpec): ErrorStatus[] => {
  return (Object.keys(ERROR_STATUSES).map(Number) as ErrorStatus[]).filter((status) => {
    // Public routes never reveal whether something exists (no account enumeration), so no 404 either.
    if (status === 401 || status === 403 || status === 404) return route.auth !== 'public';
    if (status === 409) return route.method !== 'GET';
    if (status === 413) return route.method !== 'GET' && route.method !== 'DELETE';
    if (status === 422 || status === 502) return route.moreErrors?.includes(status) ?? false;
    return true;
  });
};

/** The success response a route declares, in its envelope; an undeclared one is documented as any 2XX. */
const successResponseOf = (route: RouteSpec): Record<string, unknown> => {
  const response = route.response;
  if (!response) return { '2XX': { $ref: '#/components/responses/Success' } };
  if ('contentType' in response) {
    return { [response.status]: { description: route.summary, content: { [response.contentType]: {} } } };
  }
  const extra = response.extra
    ? (toJsonSchema(response.extra, 'output') as { properties?: JsonSchema; required?: string[] })
    : {};
  const schema = {
    type: 'object',
    required: ['success', 'message', 'data', ...(extra.required ?? [])],
    properties: {
      success: { const: true },
      message: { type: 'string' },
      data: toJsonSchema(response.data, 'output'),
      ...extra.properties,
    },
  };
  const content = { 'application/json': { schema } };
  return {
    [response.status]: { description: route.summary, content },
    ...Object.fromEntries(
      Object.entries(response.otherStatuses ?? {}).map(([status, description]) => [status, { description, content }]),
    ),
  };
};

const operationFor = (group: RouteGroup, key: string, route: RouteSpec) => {
  const declaredPath = parametersOf(route.request?.params, 'path');
  const pathParameters = pathParameterNames(route.path).map(
    (name) => declaredPath.get(name) ?? { name, in: 'path', required: true, schema: { type: 'string' } },
  );
  const parameters = [...pathParameters, ...parametersOf(route.request?.query, 'query').values()];
  return {
    operationId: `${group.name}.${key}`,
    summary: route.summary,
    ...(route.description && { description: route.description }),
    tags: [group.name],
    security: SECURITY[route.auth],
    ...(route.scope && { 'x-required-scope': route.scope }),
    // Roles govern users; an API-key-only route has none, its key's scope alone decides.
    ...(route.access && route.auth !== 'apiKey' && { 'x-allowed-roles': rolesFor(route.access) }),
    ...(parameters.length > 0 && { parameters }),
    ...(route.request?.body && {
      requestBody: { required: true, content: { 'application/json': { schema: toJsonSchema(route.request.body) } } },
    }),
    responses: {
      ...successResponseOf(route),
      ...Object.fromEntries(
        errorStatusesFor(route).map((status) => [String(status), { $ref: `#/components/responses/Error${status}` }]),
      ),
    },
  };
};

/** The OpenAPI 3.1 document of the given route groups; the route table is its only source. */
/** `description` is the document's `info.description`: a short introduction, in Markdown. */
export const buildOpenApiDocument = (groups: readonly RouteGroup[], description: string) => {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const group of groups) {
    for (const [key, route] of Object.entries(group.routes)) {
      const gatewayPath = toGatewayPath(route.path);
      paths[gatewayPath] = { ...paths[gatewayPath], [route.method.toLowerCase()]: operationFor(group, key, route) };
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Incident Management Service API', version: '1.0.0', description },
    servers: [{ url: '/' }],
    tags: groups.map((group) => ({ name: group.name, description: group.description })),
    paths,
    components: COMPONENTS,
  };
};
