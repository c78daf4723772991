import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { BadRequestError } from '#lib/contract/errors.ts';
import { fieldMessages, type RequestPart } from '#lib/contract/field-messages.ts';
import { API_KEY_QUERY_NAMES } from '#lib/identity/credentials.ts';
import type { RouteSpec } from '../route.ts';
import type { HttpContext } from './http-context.ts';

interface SchemaDef {
  type: string;
  shape?: Record<string, unknown>;
  in?: { _zod: { def: SchemaDef } };
}

/** The query parameters a route takes: its query schema's keys, and the ingestion key's names where keys go in the URL. */
const acceptedQueryNames = (route: RouteSpec): readonly string[] | undefined => {
  let def = (route.request?.query as { _zod: { def: SchemaDef } } | undefined)?._zod.def;
  while (def?.type === 'pipe' && def.in) def = def.in._zod.def;
  if (def && def.type !== 'object') return undefined;
  return [...Object.keys(def?.shape ?? {}), ...(route.auth === 'apiKey' ? API_KEY_QUERY_NAMES : [])];
};

/**
 * A query parameter the route does not take is refused rather than ignored: a misspelt filter
 * (`?stauts=OPEN`) would otherwise answer the unfiltered list as if it were the filtered one.
 */
const unknownQueryMessages = (route: RouteSpec | undefined, query: Record<string, unknown>): string[] => {
  const accepted = route && acceptedQueryNames(route);
  if (!accepted) return [];
  const expected = accepted.length > 0 ? `accepted: ${accepted.join(', ')}` : 'this route takes none';
  return Object.keys(query)
    .filter((name) => !accepted.includes(name))
    .map((name) => `${name}: unknown query parameter (${expected})`);
};

/**
 * Validates path, query and body with the route's zod schemas and reports every bad field of every
 * part at once, so a client fixes its request in one round trip.
 */
export const requestValidation = (): MiddlewareObj<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  HttpContext
> => ({
  before: ({ event, context }) => {
    const schemas = context.route?.spec.request ?? {};
    const raw: Record<RequestPart, unknown> = {
      params: event.pathParameters ?? {},
      query: event.queryStringParameters ?? {},
      body: event.body ?? undefined,
    };
    const parsed: Record<RequestPart, unknown> = { ...raw };
    const errors = unknownQueryMessages(context.route?.spec, event.queryStringParameters ?? {});
    for (const part of ['params', 'query', 'body'] as const) {
      const schema = schemas[part];
      if (!schema) continue;
      const result = schema.safeParse(raw[part]);
      if (result.success) parsed[part] = result.data;
      else errors.push(...fieldMessages(part, result.error));
    }
    if (errors.length > 0) throw new BadRequestError('Validation failed', errors);
    context.parsed = parsed;
  },
});
