import * as z from 'zod';
import { storedRecord } from '#lib/store/stored-json.ts';
import { INCIDENT_PRIORITIES } from '#lib/incidents/incident.ts';
import { SIGNAL_SEVERITIES } from '#lib/signals/signal.ts';
import { GROUP_FIELDS, LABEL_GROUP_PREFIX, type RuleMatch, type SeverityCondition } from './correlation-rule.ts';

const text = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

/** A list of values any one of which satisfies a condition. */
const alternatives = (max: number) =>
  z.array(text(200)).min(1, 'must list at least one value').max(max, `must list at most ${max} values`);

const LABEL_NAME = /^[A-Za-z_][A-Za-z0-9_.\-/]{0,99}$/;
const LABEL_NAME_MESSAGE = 'must be a label name: letters, digits, _ . - or /, starting with a letter or _';

const severity = z.enum(SIGNAL_SEVERITIES);

const severityCondition = z
  .strictObject({
    min: severity.optional().describe('This severity and every higher one'),
    in: z.array(severity).min(1, 'must list at least one severity').optional().describe('Exactly these severities'),
  })
  .refine(({ min, in: listed }) => (min === undefined) !== (listed === undefined), 'give either min or in, not both')
  .transform(({ min, in: listed }): SeverityCondition => (min ? { min } : { in: [...new Set(listed)] }));

const MAX_LABEL_CONDITIONS = 20;

const labelConditions = storedRecord(alternatives(20)).superRefine((labels, context) => {
  const names = Object.keys(labels);
  for (const name of names.filter((label) => !LABEL_NAME.test(label))) {
    context.addIssue({ code: 'custom', message: LABEL_NAME_MESSAGE, path: [name] });
  }
  if (names.length > MAX_LABEL_CONDITIONS)
    context.addIssue({ code: 'custom', message: `must name at most ${MAX_LABEL_CONDITIONS} labels` });
});

/**
 * Strict, like the whole rule: a misspelt condition would otherwise be dropped and the rule would take
 * every signal.
 */
const ruleMatch = z
  .strictObject({
    sources: alternatives(20).optional().describe('Signal sources, any of them'),
    severity: severityCondition.optional(),
    serviceIds: alternatives(50).optional().describe('Signal serviceId values, any of them'),
    labels: labelConditions.optional().describe('metadata.labels: each named label must have one of its values'),
  })
  .transform(
    (match): RuleMatch => Object.fromEntries(Object.entries(match).filter(([, value]) => value !== undefined)),
  );

const isGroupField = (value: string): boolean =>
  (GROUP_FIELDS as readonly string[]).includes(value) ||
  (value.startsWith(LABEL_GROUP_PREFIX) && LABEL_NAME.test(value.slice(LABEL_GROUP_PREFIX.length)));

const groupBy = z
  .array(
    z
      .string()
      .trim()
      .refine(isGroupField, `must be one of ${GROUP_FIELDS.join(', ')} or labels.<label name>`),
  )
  .max(5, 'must list at most 5 fields')
  .refine((fields) => new Set(fields).size === fields.length, 'must not list a field twice')
  .describe('Signals with equal values of these fields form one group; [] puts every matching signal in one group');

const fields = {
  name: text(100),
  description: z.string().trim().max(1_000, 'must be at most 1000 characters'),
  order: z.number().int().min(0).max(1_000_000).describe('Rules are tried in ascending order; the first match wins'),
  isActive: z.boolean(),
  match: ruleMatch,
  groupBy,
  windowMinutes: z.number().int().min(1).max(1_440).describe('Length of the window in which signals are counted'),
  minSignals: z
    .number()
    .int()
    .min(1)
    .max(100)
    .describe('Distinct signals of one group within one window that open an incident'),
  action: z.strictObject({ priority: z.enum(INCIDENT_PRIORITIES).describe('Priority of the incident opened') }),
};

export const DEFAULT_ORDER = 100;

export const createRuleBody = z.strictObject({
  name: fields.name,
  description: fields.description.transform((value) => value || null).default(null),
  order: fields.order.default(DEFAULT_ORDER),
  isActive: fields.isActive.default(true),
  match: fields.match.default({}),
  groupBy: fields.groupBy.default(['source', 'serviceId']),
  windowMinutes: fields.windowMinutes.default(10),
  minSignals: fields.minSignals.default(1),
  action: fields.action,
});

/** Only the fields given change; `match`, `groupBy` and `action` are replaced whole. */
export const updateRuleBody = z
  .strictObject({
    name: fields.name.optional(),
    description: z
      .union([fields.description, z.null()])
      .transform((value) => value || null)
      .optional()
      .describe('null or "" clears it'),
    order: fields.order.optional(),
    isActive: fields.isActive.optional(),
    match: fields.match.optional(),
    groupBy: fields.groupBy.optional(),
    windowMinutes: fields.windowMinutes.optional(),
    minSignals: fields.minSignals.optional(),
    action: fields.action.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), 'give at least one field to change');

/** Any string: a value that names no rule of the workspace is a 404. */
export const ruleIdParams = z.object({ id: z.string().min(1) });

export type CreateRuleInput = z.output<typeof createRuleBody>;
export type UpdateRuleInput = z.output<typeof updateRuleBody>;
