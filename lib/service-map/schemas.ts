import * as z from 'zod/mini';
import { DEPENDENCY_DEPTH_LIMIT } from './limits.ts';
import { ESCALATION_POLICY_RULE, REPOSITORY_RULE } from './service.ts';

const name = z
  .string()
  .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(100, 'must be at most 100 characters'));

/** A team slug: lower-case letters and digits in words joined by single hyphens. */
const team = z
  .string()
  .check(
    z.trim(),
    z.maxLength(64, 'must be at most 64 characters'),
    z.regex(/^(?:[a-z0-9]+(?:-[a-z0-9]+)*)?$/, 'must be a slug: lower-case letters and digits joined by hyphens'),
  );

const escalationPolicyId = z
  .string()
  .check(z.trim(), z.maxLength(100, 'must be at most 100 characters'), z.describe(ESCALATION_POLICY_RULE));

const description = z.string().check(z.trim(), z.maxLength(2_000, 'must be at most 2000 characters'));

/** `owner/repo`, as deployments and pipeline runs name their repository. */
const repository = z
  .string()
  .check(
    z.trim(),
    z.maxLength(200, 'must be at most 200 characters'),
    z.regex(/^(?:[^/\s]+(?:\/[^/\s]+)+)?$/, 'must be owner/repo'),
    z.describe(REPOSITORY_RULE),
  );

/** On create `""` is the same as leaving a field out; on PATCH `null` or `""` clears it. */
const onCreate = (field: z.ZodMiniString) =>
  z.optional(
    z.pipe(
      field,
      z.transform((value: string) => value || undefined),
    ),
  );
const onPatch = (field: z.ZodMiniString) =>
  z.optional(
    z.pipe(
      z.union([field, z.null()]),
      z.transform((value: string | null) => value || null),
    ),
  );

export const createServiceBody = z.object({
  name,
  description: onCreate(description),
  team: onCreate(team),
  repository: onCreate(repository),
  escalationPolicyId: onCreate(escalationPolicyId),
});
export type CreateServiceInput = z.output<typeof createServiceBody>;

const patchFields = {
  name: z.optional(name),
  description: onPatch(description),
  team: onPatch(team),
  repository: onPatch(repository),
  escalationPolicyId: onPatch(escalationPolicyId),
};

export const updateServiceBody = z.object(patchFields).check(
  z.refine((fields) => Object.values(fields).some((value) => value !== undefined), {
    message: `give at least one of ${Object.keys(patchFields).join(', ')}`,
  }),
);
export type UpdateServiceInput = z.output<typeof updateServiceBody>;

const reference = z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(64));

export const createDependencyBody = z.object({ sourceId: reference, targetId: reference });
export type CreateDependencyInput = z.output<typeof createDependencyBody>;

/** Any string: a value that is not an id of this workspace is simply not found (404). */
export const serviceIdParams = z.object({ id: z.string().check(z.minLength(1)) });
export const dependencyIdParams = z.object({ depId: z.string().check(z.minLength(1)) });

export const downstreamImpactQuery = z.object({
  depth: z.optional(
    z.coerce
      .number()
      .check(
        z.int(),
        z.gte(1),
        z.lte(DEPENDENCY_DEPTH_LIMIT),
        z.describe(`Most hops to follow, 1 to ${DEPENDENCY_DEPTH_LIMIT}; without it, every dependent however far`),
      ),
  ),
});
