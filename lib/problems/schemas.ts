import * as z from 'zod';
import { pageQuery } from '#lib/contract/page-query.ts';
import { DEFAULT_PROBLEM_PRIORITY, PROBLEM_PRIORITIES, PROBLEM_STATUSES } from './problem.ts';

const required = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

const title = required(200);
const description = required(10_000);

const isEmailOrEmpty = (value: string): boolean => value === '' || z.email().safeParse(value).success;

/** The optional free-text fields and their longest values; an assignee is an e-mail, compared without case. */
const optionalFields = {
  rootCause: z.string().trim().max(10_000),
  workaround: z.string().trim().max(10_000),
  serviceArea: z.string().trim().max(200),
  assignedToEmail: z.string().trim().toLowerCase().max(254).refine(isEmailOrEmpty, 'must be a valid e-mail address'),
};

/** On create, `""` is the same as leaving a field out (forms send it for blank inputs), as for incidents. */
const createOptional = (field: keyof typeof optionalFields) =>
  optionalFields[field].transform((value) => value || undefined).optional();

/** On update, `null` or `""` clears the field (e.g. unassigns); absent leaves it as it is, as for incidents. */
const updateOptional = (field: keyof typeof optionalFields) =>
  z
    .union([optionalFields[field], z.null()])
    .transform((value) => value || null)
    .optional();

/** Incident ids (`INC-YYYYMMDD-XXXX`); each must name an incident of the caller's workspace. */
const relatedIncidentIds = z
  .array(z.string().trim().min(1, 'must not be empty').max(64))
  .max(100, 'must list at most 100 incidents')
  .describe('Ids of incidents of the same workspace; an unknown id is a 400');

/** Any string: a value that is not a problem id is simply not found (404). */
export const problemIdParams = z.object({ id: z.string().min(1) });

/** `status` is not taken: a problem starts OPEN (spec: Problem status); PUT moves it. */
export const createProblemBody = z.object({
  title,
  description,
  rootCause: createOptional('rootCause'),
  workaround: createOptional('workaround'),
  serviceArea: createOptional('serviceArea'),
  priority: z.enum(PROBLEM_PRIORITIES).default(DEFAULT_PROBLEM_PRIORITY),
  relatedIncidentIds: relatedIncidentIds.default([]),
  assignedToEmail: createOptional('assignedToEmail'),
});
export type CreateProblemInput = z.output<typeof createProblemBody>;

const updateFields = {
  title: title.optional(),
  description: description.optional(),
  rootCause: updateOptional('rootCause'),
  workaround: updateOptional('workaround'),
  serviceArea: updateOptional('serviceArea'),
  priority: z.enum(PROBLEM_PRIORITIES).optional(),
  status: z.enum(PROBLEM_STATUSES).optional(),
  /** Replaces the whole list; `[]` unlinks every incident. */
  relatedIncidentIds: relatedIncidentIds.optional(),
  assignedToEmail: updateOptional('assignedToEmail'),
};

export const updateProblemBody = z
  .object(updateFields)
  .refine((fields) => Object.values(fields).some((value) => value !== undefined), {
    message: `give at least one of ${Object.keys(updateFields).join(', ')}`,
  });
export type UpdateProblemInput = z.output<typeof updateProblemBody>;

export const listProblemsQuery = pageQuery().extend({
  status: z.enum(PROBLEM_STATUSES).optional(),
  priority: z.enum(PROBLEM_PRIORITIES).optional(),
});
export type ListProblemsInput = z.output<typeof listProblemsQuery>;
