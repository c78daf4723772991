import * as z from 'zod/mini';

/**
 * The parts of Opsgenie REST API bodies the importer reads (docs.opsgenie.com: User, Team, Service, Schedule,
 * Schedule Override and Escalation APIs), one file per call, as `GET /v2/users`, `/v2/teams/{id}` (gathered under
 * `data`), `/v1/services`, `/v2/schedules?expand=rotation`, `/v2/schedules/{id}/overrides` and `/v2/escalations`
 * answer: `{ data: [...], took, requestId }`.
 */
const userRecipient = z.object({ type: z.string(), id: z.optional(z.string()), username: z.optional(z.string()) });

export const usersFile = z.object({
  data: z.array(
    z.object({ username: z.string(), fullName: z.string(), role: z.optional(z.object({ name: z.string() })) }),
  ),
});

export const teamsFile = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      members: z.optional(z.array(z.object({ user: z.object({ username: z.string() }) }))),
    }),
  ),
});

export const servicesFile = z.object({
  data: z.array(z.object({ name: z.string(), description: z.nullish(z.string()), teamId: z.optional(z.string()) })),
});

const timeOfDay = z.object({ startHour: z.number(), startMin: z.number(), endHour: z.number(), endMin: z.number() });
export const weekdayWindow = z.object({
  startDay: z.string(),
  endDay: z.string(),
  startHour: z.number(),
  startMin: z.number(),
  endHour: z.number(),
  endMin: z.number(),
});

export const schedulesFile = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      timezone: z.string(),
      rotations: z.optional(
        z.array(
          z.object({
            name: z.optional(z.string()),
            startDate: z.string(),
            endDate: z.nullish(z.string()),
            type: z.enum(['hourly', 'daily', 'weekly']),
            length: z.optional(z.number()),
            participants: z.array(userRecipient),
            timeRestriction: z.nullish(
              z.object({
                type: z.enum(['time-of-day', 'weekday-and-time-of-day']),
                restriction: z.optional(timeOfDay),
                restrictions: z.optional(z.array(weekdayWindow)),
              }),
            ),
          }),
        ),
      ),
    }),
  ),
});

export const overridesFile = z.object({
  data: z.array(z.object({ user: userRecipient, startDate: z.string(), endDate: z.string() })),
});

export const escalationsFile = z.object({
  data: z.array(
    z.object({
      name: z.string(),
      rules: z.array(
        z.object({
          condition: z.optional(z.string()),
          notifyType: z.optional(z.string()),
          delay: z.object({ timeAmount: z.number(), timeUnit: z.optional(z.string()) }),
          recipient: z.object({
            type: z.string(),
            id: z.optional(z.string()),
            name: z.optional(z.string()),
            username: z.optional(z.string()),
          }),
        }),
      ),
      repeat: z.optional(z.object({ waitInterval: z.optional(z.number()), count: z.optional(z.number()) })),
    }),
  ),
});
