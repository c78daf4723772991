import * as z from 'zod/mini';
import { orderedTimeRange, timeBound } from '#lib/contract/fields.ts';
import { pageQuery } from '#lib/contract/page-query.ts';
import {
  INCIDENT_PRIORITIES,
  INCIDENT_STATUSES,
  INCIDENT_TEXT_FIELDS,
  type IncidentEditableField,
  type IncidentTextField,
} from './incident.ts';

const MAX_COMMENT_LENGTH = 20_000;

const summary = z.string().check(z.trim(), z.minLength(1), z.maxLength(300));

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
  const trimmed = z.string().check(z.trim(), z.maxLength(TEXT_LIMITS[field]));
  return field === 'assignedToEmail'
    ? trimmed.check(z.toLowerCase(), z.refine(isEmailOrEmpty, 'must be an e-mail address'))
    : trimmed;
};

/** On create, an empty text field is the same as an absent one (forms send `""` for blank inputs). */
const createText = (field: IncidentTextField) =>
  z.optional(
    z.pipe(
      textField(field),
      z.transform((value) => value || undefined),
    ),
  );

/** On update, `null` or `""` clears the field (e.g. unassigns); absent leaves it as it is. */
const updateText = (field: IncidentTextField) =>
  z.optional(
    z.pipe(
      z.union([textField(field), z.null()]),
      z.transform((value) => value || null),
    ),
  );

/** Every optional text field with its schema: the field list is the incident's, so none can be left out. */
const textFields = <S extends z.ZodMiniType>(schemaOf: (field: IncidentTextField) => S): Record<IncidentTextField, S> =>
  Object.fromEntries(INCIDENT_TEXT_FIELDS.map((field) => [field, schemaOf(field)])) as Record<IncidentTextField, S>;

/** A schema for each field a client may set: adding one to `INCIDENT_EDITABLE_FIELDS` without it does not compile. */
type EditableFieldSchemas = { [Field in IncidentEditableField]: z.ZodMiniType };

export const createIncidentBody = z.object({
  summary,
  priority: z.enum(INCIDENT_PRIORITIES),
  status: z._default(z.enum(INCIDENT_STATUSES), 'OPEN'),
  ...textFields(createText),
} satisfies EditableFieldSchemas);

const updateFields = {
  summary: z.optional(summary),
  priority: z.optional(z.enum(INCIDENT_PRIORITIES)),
  status: z.optional(z.enum(INCIDENT_STATUSES)),
  ...textFields(updateText),
} satisfies EditableFieldSchemas;

export const updateIncidentBody = z.object(updateFields).check(
  z.refine((fields) => Object.values(fields).some((value) => value !== undefined), {
    message: `give at least one of ${Object.keys(updateFields).join(', ')}`,
  }),
);

export const listIncidentsQuery = orderedTimeRange(
  z.extend(pageQuery(), {
    status: z.optional(z.enum(INCIDENT_STATUSES)),
    open: z.optional(
      z.pipe(
        z
          .enum(['true', 'false'])
          .check(
            z.describe(
              '`true`: only the incidents still open (neither RESOLVED nor CLOSED), as the console lists them by default; `false`: only the RESOLVED and CLOSED',
            ),
          ),
        z.transform((value) => value === 'true'),
      ),
    ),
    priority: z.optional(z.enum(INCIDENT_PRIORITIES)),
    environment: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(TEXT_LIMITS.environment))),
    serviceArea: z.optional(
      z
        .string()
        .check(
          z.trim(),
          z.minLength(1),
          z.maxLength(TEXT_LIMITS.serviceArea),
          z.describe(
            'The incidents of this service area: the whole value, in any case, surrounding spaces ignored (`Payments ` finds `payments`, not `payments-eu`).',
          ),
        ),
    ),
    from: z.optional(timeBound('start')),
    to: z.optional(timeBound('end')),
  }),
);

/** Any string: a value that is not an incident id is simply not found (404), as the data model says. */
const incidentId = z
  .string()
  .check(
    z.minLength(1),
    z.describe(
      'An incident id, `INC-YYYYMMDD-XXXX`: the UTC day and its number, four digits or more (`INC-20261123-10000`)',
    ),
  );

export const incidentIdParams = z.object({ id: incidentId });

export const ticketIdParams = z.object({ ticketId: incidentId });

export const addCommentBody = z.object({
  ticketId: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)),
  /** Markdown, kept as written: leading spaces and line breaks carry meaning. */
  content: z.string().check(
    z.maxLength(MAX_COMMENT_LENGTH),
    z.refine((value) => value.trim().length > 0, 'must not be empty'),
  ),
});

export const generatePdfBody = z.object({ incidentId: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)) });

export const generateTopLevelPdfBody = z.object({
  id: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)),
  /** Printed in the report as the requester's note. */
  description: z.optional(z.string().check(z.trim(), z.maxLength(5_000))),
});

/** Longest `resolution` or `rootCause`: the size of the longer prose fields. */
const MAX_RESOLUTION_LENGTH = 10_000;

/** Markdown, trimmed; an empty one is the same as an absent one. */
const resolutionText = z.optional(
  z.pipe(
    z.string().check(z.trim(), z.maxLength(MAX_RESOLUTION_LENGTH)),
    z.transform((value) => value || undefined),
  ),
);

/** The body is optional: a bare `POST /resolve/:id` resolves as it always did. */
export const resolveIncidentBody = z.optional(z.object({ resolution: resolutionText, rootCause: resolutionText }));

export type CreateIncidentInput = z.output<typeof createIncidentBody>;
export type UpdateIncidentInput = z.output<typeof updateIncidentBody>;
export type ListIncidentsInput = z.output<typeof listIncidentsQuery>;
export type AddCommentInput = z.output<typeof addCommentBody>;
export type ResolveIncidentInput = NonNullable<z.output<typeof resolveIncidentBody>>;
