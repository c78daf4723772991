import * as z from 'zod/mini';
import { createRouteMatcher } from '#lib/http/route-matcher.ts';
import { allRoutes } from '#lib/routes/index.ts';

const matcher = createRouteMatcher(allRoutes());

const problemsOf = (schema: z.ZodMiniType, value: unknown, where: string): string[] => {
  const result = z.safeParse(schema, value);
  return result.success ? [] : result.error.issues.map((issue) => `${where}.${issue.path.join('.')}: ${issue.message}`);
};

/**
 * Every successful response a test receives must be what its route declares (`RouteSpec.response`, the
 * source of the OpenAPI document): a broken contract fails the test that met it, whatever it asserts.
 */
export const checkResponseContract = (method: string, url: string, status: number, body: unknown): void => {
  if (status < 200 || status >= 300) return;
  const route = matcher.match(method, new URL(url).pathname)?.spec;
  const declared = route?.response;
  if (!route || !declared) return;
  const problems: string[] = [];
  const other = 'otherStatuses' in declared && declared.otherStatuses ? Object.keys(declared.otherStatuses) : [];
  if (status !== declared.status && !other.includes(String(status))) {
    problems.push(`status ${status}, declared ${declared.status}`);
  }
  if ('data' in declared) {
    const envelope = body as { data?: unknown } & Record<string, unknown>;
    problems.push(...problemsOf(declared.data, envelope?.data, 'data'));
    if (declared.extra) problems.push(...problemsOf(declared.extra, envelope, 'envelope'));
  }
  if (problems.length > 0) {
    throw new Error(`${method} ${route.path} broke its declared response:\n${problems.join('\n')}`);
  }
};
