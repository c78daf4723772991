import * as z from 'zod/mini';
import { storedRecord } from '#lib/store/stored-json.ts';
import { INCIDENT_PRIORITIES } from '#lib/incidents/incident.ts';
import { SIGNAL_SEVERITIES } from '#lib/signals/signal.ts';
import { GROUP_FIELDS, LABEL_GROUP_PREFIX, type RuleMatch, type SeverityCondition } from './correlation-rule.ts';

const text = (max: number) =>
  z
    .string()
    .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`));

/** A list of values any one of which satisfies a condition. */
const alternatives = (max: number) =>
  z
    .array(text(200))
    .check(z.minLength(1, 'must list at least one value'), z.maxLength(max, `must list at most ${max} values`));

const LABEL_NAME = /^[A-Za-z_][A-Za-z0-9_.\-/]{0,99}$/;
const LABEL_NAME_MESSAGE = 'must be a label name: letters, digits, _ . - or /, starting with a letter or _';

const severity = z.enum(SIGNAL_SEVERITIES);

const severityCondition = z.pipe(
  z
    .strictObject({
      min: z.optional(severity).check(z.describe('This severity and every higher one')),
      in: z
        .optional(z.array(severity).check(z.minLength(1, 'must list at least one severity')))
        .check(z.describe('Exactly these severities')),
    })
    .check(
      z.refine(
        ({ min, in: listed }) => (min === undefined) !== (listed === undefined),
        'give either min or in, not both',
      ),
    ),
  z.transform(({ min, in: listed }): SeverityCondition => (min ? { min } : { in: [...new Set(listed)] })),
);

const MAX_LABEL_CONDITIONS = 20;

const labelConditions = storedRecord(alternatives(20)).check(
  z.superRefine((labels, context) => {
    const names = Object.keys(labels);
    for (const name of names.filter((label) => !LABEL_NAME.test(label))) {
      context.addIssue({ code: 'custom', message: LABEL_NAME_MESSAGE, path: [name] });
    }
    if (names.length > MAX_LABEL_CONDITIONS)
      context.addIssue({ code: 'custom', message: `must name at most ${MAX_LABEL_CONDITIONS} labels` });
  }),
);

/**
 * Strict, like the whole rule: a misspelt condition would otherwise be dropped and the rule would take
 * every signal.
 */
const ruleMatch = z.pipe(
  z.strictObject({
    sources: z.optional(alternatives(20)).check(z.describe('Signal sources, any of them')),
    severity: z.optional(severityCondition),
    serviceIds: z.optional(alternatives(50)).check(z.describe('Signal serviceId values, any of them')),
    labels: z
      .optional(labelConditions)
      .check(z.describe('metadata.labels: each named label must have one of its values')),
  }),
  z.transform(
    (match): RuleMatch => Object.fromEntries(Object.entries(match).filter(([, value]) => value !== undefined)),
  ),
);

const isGroupField = (value: string): boolean =>
  (GROUP_FIELDS as readonly string[]).includes(value) ||
  (value.startsWith(LABEL_GROUP_PREFIX) && LABEL_NAME.test(value.slice(LABEL_GROUP_PREFIX.length)));

const groupBy = z
  .array(
    z
      .string()
      .check(z.trim(), z.refine(isGroupField, `must be one of ${GROUP_FIELDS.join(', ')} or labels.<label name>`)),
  )
  .check(
    z.maxLength(5, 'must list at most 5 fields'),
    z.refine((fields) => new Set(fields).size === fields.length, 'must not list a field twice'),
    z.describe('Signals with equal values of these fields form one group; [] puts every matching signal in one group'),
  );

const fields = {
  name: text(100),
  description: z.string().check(z.trim(), z.maxLength(1_000, 'must be at most 1000 characters')),
  order: z
    .number()
    .check(z.int(), z.gte(0), z.lte(1_000_000), z.describe('Rules are tried in ascending order; the first match wins')),
  isActive: z.boolean(),
  match: ruleMatch,
  groupBy,
  windowMinutes: z
    .number()
    .check(z.int(), z.gte(1), z.lte(1_440), z.describe('Length of the window in which signals are counted')),
  minSignals: z
    .number()
    .check(
      z.int(),
      z.gte(1),
      z.lte(100),
      z.describe('Distinct signals of one group within one window that open an incident'),
    ),
  action: z.strictObject({
    priority: z.enum(INCIDENT_PRIORITIES).check(z.describe('Priority of the incident opened')),
  }),
  autoResolve: z
    .boolean()
    .check(
      z.describe(
        'Resolve the incidents this rule opens once every signal linked to them has resolved (actor `system`)',
      ),
    ),
};

const DEFAULT_ORDER = 100;

export const createRuleBody = z.strictObject({
  name: fields.name,
  description: z._default(
    z.pipe(
      fields.description,
      z.transform((value) => value || null),
    ),
    null,
  ),
  order: z._default(fields.order, DEFAULT_ORDER),
  isActive: z._default(fields.isActive, true),
  match: z._default(fields.match, {}),
  groupBy: z._default(fields.groupBy, ['source', 'serviceId']),
  windowMinutes: z._default(fields.windowMinutes, 10),
  minSignals: z._default(fields.minSignals, 1),
  action: fields.action,
  autoResolve: z._default(fields.autoResolve, false),
});

/** Only the fields given change; `match`, `groupBy` and `action` are replaced whole. */
export const updateRuleBody = z
  .strictObject({
    name: z.optional(fields.name),
    description: z
      .optional(
        z.pipe(
          z.union([fields.description, z.null()]),
          z.transform((value) => value || null),
        ),
      )
      .check(z.describe('null or "" clears it')),
    order: z.optional(fields.order),
    isActive: z.optional(fields.isActive),
    match: z.optional(fields.match),
    groupBy: z.optional(fields.groupBy),
    windowMinutes: z.optional(fields.windowMinutes),
    minSignals: z.optional(fields.minSignals),
    action: z.optional(fields.action),
    autoResolve: z.optional(fields.autoResolve),
  })
  .check(
    z.refine((body) => Object.values(body).some((value) => value !== undefined), 'give at least one field to change'),
  );

/** Any string: a value that names no rule of the workspace is a 404. */
export const ruleIdParams = z.object({ id: z.string().check(z.minLength(1)) });

export type CreateRuleInput = z.output<typeof createRuleBody>;
export type UpdateRuleInput = z.output<typeof updateRuleBody>;
