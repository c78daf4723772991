import * as z from 'zod/mini';
import { emailAddress } from '#lib/contract/fields.ts';
import { pageQuery } from '#lib/contract/page-query.ts';
import { INCIDENT_PRIORITIES } from '#lib/incidents/incident.ts';
import { EXECUTION_STATUSES } from './execution.ts';
import { PLAYBOOK_STATUSES } from './playbook.ts';

/**
 * Limits keep the largest execution (its steps copied, a note per step, its ad-hoc actions) far below a
 * table item's 400 KB: 50 steps of 2,000 characters of instructions and 2,000 of notes, 100 actions.
 */
const MAX_STEPS = 50;
export const MAX_ACTIONS = 100;
const MAX_CONDITION_VALUES = 20;

const text = (max: number) =>
  z
    .string()
    .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`));

/** Optional text: `""` (a blank form field) and `null` mean none. */
const optionalText = (max: number) =>
  z.optional(
    z.pipe(
      z.union([z.string().check(z.trim(), z.maxLength(max, `must be at most ${max} characters`)), z.null()]),
      z.transform((value) => value || null),
    ),
  );

/** Fields in one order, unset instructions null, so equal steps compare equal (`sameContent`). */
const step = z.pipe(
  z.object({
    title: text(200),
    instructions: optionalText(2_000),
    optional: z._default(z.boolean(), false),
  }),
  z.transform(({ title, instructions, optional }) => ({ title, instructions: instructions ?? null, optional })),
);

const steps = z
  .array(step)
  .check(z.minLength(1, 'must list at least one step'), z.maxLength(MAX_STEPS, `must list at most ${MAX_STEPS} steps`));

/** One value or a list of them, kept as a list without repeats (compared without case). */
const conditionValues = <T extends z.ZodMiniType<string>>(value: T) =>
  z.pipe(
    z.union([
      value,
      z.array(value).check(z.maxLength(MAX_CONDITION_VALUES, `must list at most ${MAX_CONDITION_VALUES}`)),
    ]),
    z.transform((given): z.output<T>[] => {
      const seen = new Set<string>();
      return (Array.isArray(given) ? given : [given]).filter((entry) => {
        const key = entry.toLowerCase();
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    }),
  );

const triggerConditions = z
  .object({
    serviceArea: z._default(conditionValues(text(200)), []),
    priority: z._default(conditionValues(z.enum(INCIDENT_PRIORITIES)), []),
    environment: z._default(conditionValues(text(200)), []),
    keywords: z._default(conditionValues(text(100)), []),
  })
  .check(
    z.describe(
      'Each a value or a list of values; a playbook matches an incident by these (docs/playbooks.md, "Matching")',
    ),
  );

/** Any string: a value that is not a ULID names no playbook (404). */
export const playbookIdParams = z.object({ id: z.string().check(z.minLength(1)) });

export const getPlaybookQuery = z.object({
  version: z.optional(
    z.coerce
      .number()
      .check(z.int(), z.gte(1), z.describe('A version published earlier, or the current draft; absent: the latest')),
  ),
});

export const createPlaybookBody = z.object({
  title: text(200),
  description: optionalText(5_000),
  steps,
  triggerConditions: z._default(triggerConditions, {
    serviceArea: [],
    priority: [],
    environment: [],
    keywords: [],
  }),
});
export type CreatePlaybookInput = z.output<typeof createPlaybookBody>;

const updateFields = {
  title: z.optional(text(200)),
  description: optionalText(5_000),
  steps: z.optional(steps),
  triggerConditions: z.optional(triggerConditions),
};

export const updatePlaybookBody = z.object(updateFields).check(
  z.refine((fields) => Object.values(fields).some((value) => value !== undefined), {
    message: `give at least one of ${Object.keys(updateFields).join(', ')}`,
  }),
);
export type UpdatePlaybookInput = z.output<typeof updatePlaybookBody>;

export const listPlaybooksQuery = z.extend(pageQuery(), { status: z.optional(z.enum(PLAYBOOK_STATUSES)) });
export type ListPlaybooksInput = z.output<typeof listPlaybooksQuery>;

export const matchBody = z.object({
  incidentId: z.optional(text(64).check(z.describe("An incident of the caller's workspace; its fields fill the rest"))),
  serviceArea: z.optional(text(200)),
  priority: z.optional(z.enum(INCIDENT_PRIORITIES)),
  environment: z.optional(text(200)),
  summary: z.optional(text(500)),
  description: z.optional(text(10_000)),
});
export type MatchInput = z.output<typeof matchBody>;

export const executeBody = z._default(
  z.object({
    incidentId: z.optional(text(64).check(z.describe("An incident of the caller's workspace"))),
    assignedToEmail: z.optional(emailAddress),
  }),
  {},
);
export type ExecuteInput = z.output<typeof executeBody>;

export const executionIdParams = z.object({ executionId: z.string().check(z.minLength(1)) });

export const stepParams = z.object({
  executionId: z.string().check(z.minLength(1)),
  index: z.coerce.number().check(z.int(), z.gte(0)),
});

export const completeStepBody = z._default(z.object({ note: optionalText(2_000) }), {});
export const skipStepBody = z._default(z.object({ reason: optionalText(500) }), {});
export const recordActionBody = z.object({ description: text(500) });
export const cancelBody = z._default(z.object({ reason: optionalText(500) }), {});

export const listExecutionsQuery = z.extend(pageQuery(), {
  status: z.optional(z.enum(EXECUTION_STATUSES)),
  incidentId: z.optional(
    z
      .string()
      .check(
        z.trim(),
        z.minLength(1),
        z.maxLength(64),
        z.describe(
          "The executions linked to this incident of the workspace (`INC-YYYYMMDD-XXXX`); an id without any, another workspace's included, lists none",
        ),
      ),
  ),
});
export type ListExecutionsInput = z.output<typeof listExecutionsQuery>;
