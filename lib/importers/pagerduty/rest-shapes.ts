import * as z from 'zod/mini';

/**
 * The parts of PagerDuty REST API v2 bodies the importer reads (developer.pagerduty.com, API Reference: Users,
 * Teams, Services, Schedules, Escalation Policies), one file per list call, as `GET /users`, `/teams`, `/services`,
 * `/schedules/{id}` (gathered under `schedules`), `/escalation_policies` and `/schedules/{id}/overrides` answer.
 */
const reference = z.object({ id: z.string(), summary: z.optional(z.string()) });

export const usersFile = z.object({
  users: z.array(z.object({ id: z.string(), name: z.string(), email: z.string(), role: z.optional(z.string()) })),
});

export const servicesFile = z.object({
  services: z.array(
    z.object({
      name: z.string(),
      description: z.nullish(z.string()),
      teams: z.optional(z.array(reference)),
      escalation_policy: z.optional(reference),
    }),
  ),
});

const restriction = z.object({
  type: z.enum(['daily_restriction', 'weekly_restriction']),
  start_time_of_day: z.string(),
  duration_seconds: z.number(),
  start_day_of_week: z.optional(z.number()),
});
export type PagerDutyRestriction = z.output<typeof restriction>;

export const schedulesFile = z.object({
  schedules: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      time_zone: z.string(),
      schedule_layers: z.array(
        z.object({
          name: z.optional(z.string()),
          start: z.string(),
          end: z.nullish(z.string()),
          rotation_virtual_start: z.string(),
          rotation_turn_length_seconds: z.number(),
          users: z.array(z.object({ user: reference })),
          restrictions: z.optional(z.array(restriction)),
        }),
      ),
    }),
  ),
});

export const overridesFile = z.object({
  overrides: z.array(z.object({ start: z.string(), end: z.string(), user: reference })),
});

export const escalationPoliciesFile = z.object({
  escalation_policies: z.array(
    z.object({
      name: z.string(),
      num_loops: z.optional(z.number()),
      escalation_rules: z.array(
        z.object({
          escalation_delay_in_minutes: z.number(),
          targets: z.array(z.object({ type: z.string(), id: z.string(), summary: z.optional(z.string()) })),
        }),
      ),
    }),
  ),
});
