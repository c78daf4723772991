import type { MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { BadRequestError } from '#lib/contract/errors.ts';
import { prototypeKeyMessage, replacesPrototype } from '#lib/contract/prototype-keys.ts';
import type { HttpContext } from './http-context.ts';

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/**
 * A reviver that changes nothing (JSON.parse keeps `__proto__` as an own property, with no prototype
 * effect) but notes, for each object parsed, the first key in it or below it that would replace a
 * prototype (lib/contract/prototype-keys.ts), so the body can be refused, or its items left to their
 * own validation, before any code reads it.
 */
const prototypeKeyFinder = () => {
  const firstBelow = new WeakMap<object, string>();
  function reviver(this: object, key: string, value: unknown): unknown {
    const found = replacesPrototype(key, value) ? key : isObject(value) ? firstBelow.get(value) : undefined;
    if (found !== undefined && !firstBelow.has(this)) firstBelow.set(this, found);
    return value;
  }
  return { reviver, firstIn: (value: unknown) => (isObject(value) ? firstBelow.get(value) : undefined) };
};

/**
 * The key refused in the body, if any. Inside the items of a route that validates them alone (a bulk post)
 * such a key stays, as an own property, for the item's validation to refuse that item only.
 */
const refusedKey = (
  body: unknown,
  firstIn: (value: unknown) => string | undefined,
  itemsAt: string | undefined,
): string | undefined => {
  const items =
    itemsAt && isObject(body) && Object.hasOwn(body, itemsAt) ? (body as Record<string, unknown>)[itemsAt] : undefined;
  if (!Array.isArray(items)) return firstIn(body);
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    const found = replacesPrototype(key, value) ? key : key === itemsAt ? undefined : firstIn(value);
    if (found !== undefined) return found;
  }
  return undefined;
};

/**
 * Parses any non-empty body as JSON whatever its content type, since `curl -d` and several webhook
 * senders do not label JSON as such (a route declaring `formBody` takes form fields instead); a body that
 * is not JSON is a 400 with the parser's reason, and so is a key that would replace a prototype.
 */
export const jsonBody = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext> => ({
  before: async (request) => {
    const { body, isBase64Encoded } = request.event;
    if (!body) return;
    request.context.rawBody = isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
    // A form-encoded body is its route's own to read, from `rawBody`.
    if (request.context.route?.spec.formBody) return;
    const { reviver, firstIn } = prototypeKeyFinder();
    // The option exists in the parser but not in its type declarations.
    const parser = httpJsonBodyParser({ disableContentTypeCheck: true, reviver } as Parameters<
      typeof httpJsonBodyParser
    >[0]);
    try {
      await parser.before?.(request as never);
    } catch (error) {
      const cause =
        error instanceof Error && error.cause instanceof Object ? (error.cause as { message?: unknown }) : {};
      throw new BadRequestError('Malformed JSON in request body', [
        `body: ${cause.message === undefined ? 'not valid JSON' : String(cause.message)}`,
      ]);
    }
    const refused = refusedKey(request.event.body, firstIn, request.context.route?.spec.itemsValidatedAlone);
    if (refused !== undefined)
      throw new BadRequestError('Forbidden key in JSON body', [`body: ${prototypeKeyMessage(refused)}`]);
  },
});
