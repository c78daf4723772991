import * as z from 'zod/mini';
import { pageQuery } from '#lib/contract/page-query.ts';
import { INCIDENT_PRIORITIES } from '#lib/incidents/incident.ts';
import { DEFAULT_PROBLEM_PRIORITY, PROBLEM_STATUSES } from './problem.ts';
import { nullableText } from '#lib/contract/response-fields.ts';

const required = (max: number) =>
  z
    .string()
    .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`));

const title = required(200);
const description = required(10_000);

const isEmailOrEmpty = (value: string): boolean => value === '' || z.email().safeParse(value).success;

/** The optional free-text fields and their longest values; an assignee is an e-mail, compared without case. */
const optionalFields = {
  rootCause: z.string().check(z.trim(), z.maxLength(10_000)),
  workaround: z.string().check(z.trim(), z.maxLength(10_000)),
  serviceArea: z.string().check(z.trim(), z.maxLength(200)),
  assignedToEmail: z
    .string()
    .check(z.trim(), z.toLowerCase(), z.maxLength(254), z.refine(isEmailOrEmpty, 'must be a valid e-mail address')),
};

/** On create, `""` is the same as leaving a field out (forms send it for blank inputs), as for incidents. */
const createOptional = (field: keyof typeof optionalFields) =>
  z.optional(
    z.pipe(
      optionalFields[field],
      z.transform((value) => value || undefined),
    ),
  );

/** On update, `null` or `""` clears the field (e.g. unassigns); absent leaves it as it is, as for incidents. */
const updateOptional = (field: keyof typeof optionalFields) =>
  z.optional(
    z.pipe(
      z.union([optionalFields[field], z.null()]),
      z.transform((value) => value || null),
    ),
  );

/** Incident ids (`INC-YYYYMMDD-XXXX`); each must name an incident of the caller's workspace. */
const relatedIncidentIds = z
  .array(z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(64)))
  .check(
    z.maxLength(100, 'must list at most 100 incidents'),
    z.describe('Ids of incidents of the same workspace; an unknown id is a 400'),
  );

/** Any string: a value that is not a problem id is simply not found (404). */
export const problemIdParams = z.object({ id: z.string().check(z.minLength(1)) });

/** `status` is not taken: a problem starts OPEN (spec: Problem status); PUT moves it. */
export const createProblemBody = z.object({
  title,
  description,
  rootCause: createOptional('rootCause'),
  workaround: createOptional('workaround'),
  serviceArea: createOptional('serviceArea'),
  priority: z._default(z.enum(INCIDENT_PRIORITIES), DEFAULT_PROBLEM_PRIORITY),
  relatedIncidentIds: z._default(relatedIncidentIds, []),
  assignedToEmail: createOptional('assignedToEmail'),
});
export type CreateProblemInput = z.output<typeof createProblemBody>;

const updateFields = {
  title: z.optional(title),
  description: z.optional(description),
  rootCause: updateOptional('rootCause'),
  workaround: updateOptional('workaround'),
  serviceArea: updateOptional('serviceArea'),
  priority: z.optional(z.enum(INCIDENT_PRIORITIES)),
  status: z.optional(z.enum(PROBLEM_STATUSES)),
  /** Replaces the whole list; `[]` unlinks every incident. */
  relatedIncidentIds: z.optional(relatedIncidentIds),
  assignedToEmail: updateOptional('assignedToEmail'),
};

export const updateProblemBody = z.object(updateFields).check(
  z.refine((fields) => Object.values(fields).some((value) => value !== undefined), {
    message: `give at least one of ${Object.keys(updateFields).join(', ')}`,
  }),
);
export type UpdateProblemInput = z.output<typeof updateProblemBody>;

export const listProblemsQuery = z.extend(pageQuery(), {
  status: z.optional(z.enum(PROBLEM_STATUSES)),
  priority: z.optional(z.enum(INCIDENT_PRIORITIES)),
});
export type ListProblemsInput = z.output<typeof listProblemsQuery>;

/** The Problem resource as the service returns it; optional text is null when unset. */
export const problemData = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  rootCause: nullableText,
  workaround: nullableText,
  serviceArea: nullableText,
  priority: z.enum(INCIDENT_PRIORITIES),
  status: z.enum(PROBLEM_STATUSES),
  relatedIncidentIds: z.array(z.string()),
  assignedToEmail: nullableText,
  createdAt: z.string(),
  updatedAt: z.string(),
});
