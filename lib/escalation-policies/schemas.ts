import * as z from 'zod/mini';
import { emailAddress } from '#lib/contract/fields.ts';

/** Request schemas of the escalation-policy routes (docs/on-call.md, "Escalation policies"). */
const MAX_LEVELS = 10;
const MAX_TARGETS = 20;
export const MAX_REPEAT = 5;
/** A day: a level that waits longer than that is not an escalation any more. */
export const MAX_DELAY_MINUTES = 1440;

const id = z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(100));

const target = z.discriminatedUnion('type', [
  z.object({ type: z.literal('schedule'), id: id.check(z.describe('A schedule id: whoever is on call when paged')) }),
  z.object({
    type: z.literal('member'),
    id: id.check(z.describe("A member id of the workspace, or an open invitation's inviteId")),
  }),
  z.object({
    type: z.literal('email'),
    address: emailAddress,
  }),
]);

const level = z.object({
  delayMinutes: z
    .number()
    .check(
      z.int('must be a whole number of minutes'),
      z.gte(0, `must be 0 to ${MAX_DELAY_MINUTES}`),
      z.lte(MAX_DELAY_MINUTES, `must be 0 to ${MAX_DELAY_MINUTES}`),
      z.describe('After the previous level; level 1 pages at the opening, its delay is the wait before a repeat'),
    ),
  targets: z
    .array(target)
    .check(
      z.minLength(1, 'must name at least one target'),
      z.maxLength(MAX_TARGETS, `must name at most ${MAX_TARGETS} targets`),
    ),
});

export const escalationPolicyBody = z.object({
  name: z
    .string()
    .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(200, 'must be at most 200 characters')),
  levels: z
    .array(level)
    .check(
      z.minLength(1, 'must hold at least one level'),
      z.maxLength(MAX_LEVELS, `must hold at most ${MAX_LEVELS} levels`),
    ),
  repeat: z._default(
    z
      .number()
      .check(
        z.int('must be a whole number'),
        z.gte(0, `must be 0 to ${MAX_REPEAT}`),
        z.lte(MAX_REPEAT, `must be 0 to ${MAX_REPEAT}`),
        z.describe('Passes through the levels again while nobody acknowledges (0 to 5)'),
      ),
    0,
  ),
  ackTimeoutMinutes: z.optional(
    z
      .number()
      .check(
        z.int('must be a whole number of minutes'),
        z.gte(1, 'must be 1 to 10080'),
        z.lte(10_080, 'must be 1 to 10080'),
        z.describe('An acknowledged incident not resolved this long after returns to OPEN and is paged again'),
      ),
  ),
});
export type EscalationPolicyInput = z.output<typeof escalationPolicyBody>;

export const escalationPolicyIdParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(100)) });
