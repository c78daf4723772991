import * as z from 'zod/mini';
import { ANY_TEAM, BREACH_STATUSES, SLA_PRIORITIES } from './sla-policy.ts';

const text = (max: number) =>
  z
    .string()
    .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`));

/** Whole minutes, at most a year. */
const minutes = z
  .number()
  .check(z.int('must be whole minutes'), z.gte(1, 'must be at least 1'), z.lte(525_600, 'must be at most 525600'));

/** A percentage the table can store: 0, or between 0.001 and 100. */
const percent = z.number().check(
  z.gte(0, 'must be 0 to 100'),
  z.lte(100, 'must be 0 to 100'),
  z.refine((value) => value === 0 || value >= 0.001, 'must be 0 or at least 0.001'),
);

const SLUG = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;

const applicableTeam = z.string().check(
  z.trim(),
  z.toLowerCase(),
  z.maxLength(100, 'must be at most 100 characters'),
  z.refine(
    (value) => value === ANY_TEAM || SLUG.test(value),
    'must be a team slug (letters, digits, - or _) or * for every team',
  ),
  z.describe("Matched against an incident's serviceArea without case; * governs every team"),
);

/** Every spec field is required on create and on replace, so a PUT leaves nothing of the old fields. */
export const policyBody = z.object({
  name: text(200),
  priority: z.enum(SLA_PRIORITIES),
  responseTimeMinutes: minutes.check(z.describe('Minutes from creation to the first acknowledgement')),
  responseThreshold: percent.check(z.describe('Percent of incidents that must meet the response target')),
  resolveTimeMinutes: minutes.check(z.describe('Minutes from creation to resolution')),
  resolveThreshold: percent.check(z.describe('Percent of incidents that must meet the resolve target')),
  escalationContact: text(254),
  applicableTeam,
  uptimeTarget: percent.check(z.describe('Percent, e.g. 99.9')),
});
export type PolicyInput = z.output<typeof policyBody>;

/** Any string: a value that is not a policy id is simply not found (404). */
export const policyIdParams = z.object({ id: z.string().check(z.minLength(1)) });

const policyView = z.object({
  id: z.string(),
  name: z.string(),
  priority: z.enum(SLA_PRIORITIES),
  responseTimeMinutes: z.number(),
  responseThreshold: z.number(),
  resolveTimeMinutes: z.number(),
  resolveThreshold: z.number(),
  escalationContact: z.string(),
  applicableTeam: z.string(),
  uptimeTarget: z.number(),
  breachStatus: z.enum(BREACH_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const targetCompliance = z.object({
  met: z.number(),
  breached: z.number(),
  metPercent: z.nullable(z.number()),
  threshold: z.number(),
  holds: z.boolean(),
});

export const policyResponse = policyView;
export const policiesResponse = z.object({ policies: z.array(policyView) });
export const policyWithComplianceResponse = z.extend(policyView, {
  compliance: z.object({
    governedIncidents: z.number(),
    response: targetCompliance,
    resolve: targetCompliance,
    uptime: z.object({ percent: z.number(), target: z.number(), holds: z.boolean() }),
  }),
});
export const deletedPolicyResponse = z.object({ id: z.string() });
