import * as z from 'zod/mini';
import type { RouteSpec } from '#lib/http/route.ts';

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  minLength?: number;
  minimum?: number;
  minItems?: number;
}

let counter = 0;
const unique = (): string => `${Date.now().toString(36)}${(counter += 1)}`;

const STRING_FORMATS: Record<string, () => string> = {
  email: () => `probe-${unique()}@example.com`,
  date: () => new Date().toISOString().slice(0, 10),
  'date-time': () => new Date().toISOString(),
  uri: () => 'https://example.com/probe',
  url: () => 'https://example.com/probe',
  uuid: () => '00000000-0000-4000-8000-000000000000',
};

/** A value a JSON schema accepts, as far as its keywords say: required properties only, or every property. */
const sampleOf = (schema: JsonSchema, every: boolean): unknown => {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return sampleOf(variants.find((variant) => variant.type !== 'null') ?? variants[0] ?? {}, every);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        (every ? Object.keys(schema.properties ?? {}) : (schema.required ?? [])).map((name) => [
          name,
          sampleOf(schema.properties?.[name] ?? {}, every),
        ]),
      );
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleOf(schema.items ?? {}, every));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'string': {
      const formatted = schema.format ? STRING_FORMATS[schema.format]?.() : undefined;
      return formatted ?? `probe-${unique()}`.padEnd(schema.minLength ?? 0, 'x');
    }
    default:
      return schema.default ?? {};
  }
};

/**
 * A request part the route's schema accepts, when one can be derived from the schema alone: the required
 * fields, else every field (for "give at least one of"). Otherwise the guess, which the route answers
 * 400: a request still served, though not past validation.
 */
export const samplePart = (schema: z.ZodMiniType | undefined): unknown => {
  if (!schema) return undefined;
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const guesses = [sampleOf(json, false), sampleOf(json, true)];
  return guesses.find((guess) => schema.safeParse(guess).success) ?? guesses[0];
};

/** The route's path with each parameter filled: from `values` when known, else from its schema's sample. */
export const samplePath = (route: RouteSpec, values: Readonly<Record<string, string>>): string => {
  const sampled = (samplePart(route.request?.params) ?? {}) as Record<string, unknown>;
  return route.path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) =>
    encodeURIComponent(values[name] ?? String(sampled[name] ?? `probe-${name}`)),
  );
};

/** The query string of the route's required query fields, `?`-prefixed, or empty. */
export const sampleQuery = (route: RouteSpec): string => {
  const query = (samplePart(route.request?.query) ?? {}) as Record<string, unknown>;
  const search = new URLSearchParams(
    Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]),
  );
  return search.size === 0 ? '' : `?${search}`;
};
