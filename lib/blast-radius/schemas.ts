import * as z from 'zod/mini';
import { pageQuery } from '#lib/contract/page-query.ts';
import { DEPENDENCY_DEPTH_LIMIT } from '#lib/service-map/limits.ts';

/** The spec's default depth (Limits). */
const DEFAULT_DEPTH = 3;

const id = z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(64));
const environment = z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(100));

/** Exactly one of `triggerId` and `serviceId`; both or neither is a 400 naming the field (DECISIONS.md). */
export const calculateBody = z
  .object({
    triggerId: z.optional(id.check(z.describe('A signal id or an incident id (`INC-YYYYMMDD-XXXX`)'))),
    serviceId: z.optional(id),
    environment: z.optional(environment),
    depth: z._default(z.number().check(z.int(), z.gte(1), z.lte(DEPENDENCY_DEPTH_LIMIT)), DEFAULT_DEPTH),
  })
  .check(
    z.refine((body) => !(body.triggerId !== undefined && body.serviceId !== undefined), {
      message: 'give either triggerId or serviceId, not both',
      path: ['serviceId'],
    }),
    z.refine((body) => body.triggerId !== undefined || body.serviceId !== undefined, {
      message: 'give triggerId (a signal or incident id) or serviceId',
      path: ['triggerId'],
    }),
  );
export type CalculateInput = z.output<typeof calculateBody>;

export const listReportsQuery = z.extend(pageQuery(), {
  serviceId: z.optional(id),
  environment: z.optional(environment.check(z.describe('Compared trimmed and without case'))),
});
export type ListReportsInput = z.output<typeof listReportsQuery>;

export const reportIdParams = z.object({ id: z.string().check(z.minLength(1)) });
export const triggerIdParams = z.object({ triggerId: z.string().check(z.minLength(1), z.maxLength(64)) });
