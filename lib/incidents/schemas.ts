import * as z from 'zod';
import { orderedTimeRange, timeBound } from '#lib/contract/fields.ts';
import { pageQuery } from '#lib/contract/page-query.ts';
import { INCIDENT_PRIORITIES, INCIDENT_STATUSES, type IncidentTextField } from './incident.ts';

const MAX_COMMENT_LENGTH = 20_000;

const summary = z.string().trim().min(1).max(300);

/** Longest value of each optional text field: short labels, then the longer prose fields. */
const TEXT_LIMITS: Record<IncidentTextField, number> = {
  source: 200,
  serviceArea: 200,
  environment: 200,
  region: 200,
  assignedToEmail: 254,
  description: 10_000,
  techDescription: 10_000,
  impactSummary: 5_000,
  blastRadius: 2_000,
};

const isEmailOrEmpty = (value: string): boolean => value === '' || z.email().safeParse(value).success;

/** A trimmed text field; an assignee is an e-mail address, compared without case. */
const textField = (field: IncidentTextField) => {
  const trimmed = z.string().trim().max(TEXT_LIMITS[field]);
  return field === 'assignedToEmail'
    ? trimmed.toLowerCase().refine(isEmailOrEmpty, 'must be an e-mail address')
    : trimmed;
};

/** On create, an empty text field is the same as an absent one (forms send `""` for blank inputs). */
const createText = (field: IncidentTextField) =>
  textField(field)
    .transform((value) => value || undefined)
    .optional();

/** On update, `null` or `""` clears the field (e.g. unassigns); absent leaves it as it is. */
const updateText = (field: IncidentTextField) =>
  z
    .union([textField(field), z.null()])
    .transform((value) => value || null)
    .optional();

const createTextFields = {
  source: createText('source'),
  serviceArea: createText('serviceArea'),
  environment: createText('environment'),
  region: createText('region'),
  assignedToEmail: createText('assignedToEmail'),
  description: createText('description'),
  techDescription: createText('techDescription'),
  impactSummary: createText('impactSummary'),
  blastRadius: createText('blastRadius'),
};

const updateTextFields = {
  source: updateText('source'),
  serviceArea: updateText('serviceArea'),
  environment: updateText('environment'),
  region: updateText('region'),
  assignedToEmail: updateText('assignedToEmail'),
  description: updateText('description'),
  techDescription: updateText('techDescription'),
  impactSummary: updateText('impactSummary'),
  blastRadius: updateText('blastRadius'),
};

export const createIncidentBody = z.object({
  summary,
  priority: z.enum(INCIDENT_PRIORITIES),
  status: z.enum(INCIDENT_STATUSES).default('OPEN'),
  ...createTextFields,
});

const updateFields = {
  summary: summary.optional(),
  priority: z.enum(INCIDENT_PRIORITIES).optional(),
  status: z.enum(INCIDENT_STATUSES).optional(),
  ...updateTextFields,
};

export const updateIncidentBody = z
  .object(updateFields)
  .refine((fields) => Object.values(fields).some((value) => value !== undefined), {
    message: `give at least one of ${Object.keys(updateFields).join(', ')}`,
  });

export const listIncidentsQuery = orderedTimeRange(
  pageQuery().extend({
    status: z.enum(INCIDENT_STATUSES).optional(),
    priority: z.enum(INCIDENT_PRIORITIES).optional(),
    environment: z.string().trim().min(1).max(TEXT_LIMITS.environment).optional(),
    from: timeBound('start').optional(),
    to: timeBound('end').optional(),
  }),
);

/** Any string: a value that is not an incident id is simply not found (404), as the data model says. */
const incidentId = z
  .string()
  .min(1)
  .describe(
    'An incident id, `INC-YYYYMMDD-XXXX`: the UTC day and its number, four digits or more (`INC-20261123-10000`)',
  );

export const incidentIdParams = z.object({ id: incidentId });

export const ticketIdParams = z.object({ ticketId: incidentId });

export const addCommentBody = z.object({
  ticketId: z.string().trim().min(1).max(64),
  /** Markdown, kept as written: leading spaces and line breaks carry meaning. */
  content: z
    .string()
    .max(MAX_COMMENT_LENGTH)
    .refine((value) => value.trim().length > 0, 'must not be empty'),
});

export const generatePdfBody = z.object({ incidentId: z.string().trim().min(1).max(64) });

export const generateTopLevelPdfBody = z.object({
  id: z.string().trim().min(1).max(64),
  /** Printed in the report as the requester's note. */
  description: z.string().trim().max(5_000).optional(),
});

export type CreateIncidentInput = z.output<typeof createIncidentBody>;
export type UpdateIncidentInput = z.output<typeof updateIncidentBody>;
export type ListIncidentsInput = z.output<typeof listIncidentsQuery>;
export type AddCommentInput = z.output<typeof addCommentBody>;
