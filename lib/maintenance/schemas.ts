import * as z from 'zod/mini';

/** The longest window: a quarter. A longer silence is a service switched off, not maintenance. */
const MAX_WINDOW_DAYS = 92;
const DAY = 24 * 3600_000;

const instant = z.pipe(
  z
    .string()
    .check(z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with an offset (Z or +02:00)' })),
  z.transform((value) => new Date(value).toISOString()),
);

/**
 * Create and replace take the same fields; ending a window early is a PUT with an earlier `endsAt` (now,
 * at the soonest `startsAt`).
 */
export const windowBody = z
  .object({
    serviceIds: z
      .array(
        z
          .string()
          .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(200, 'must be at most 200 characters')),
      )
      .check(
        z.minLength(1, 'must name at least one service'),
        z.maxLength(50, 'must name at most 50 services'),
        z.describe(
          "Services whose alerts open no incident: compared with a signal's serviceId and an incident's serviceArea, without case",
        ),
      ),
    startsAt: instant,
    endsAt: instant,
    reason: z
      .string()
      .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(500, 'must be at most 500 characters')),
  })
  .check(
    z.refine(({ startsAt, endsAt }) => startsAt < endsAt, { message: 'must be after startsAt', path: ['endsAt'] }),
    z.refine(({ startsAt, endsAt }) => Date.parse(endsAt) - Date.parse(startsAt) <= MAX_WINDOW_DAYS * DAY, {
      message: `must be at most ${MAX_WINDOW_DAYS} days after startsAt`,
      path: ['endsAt'],
    }),
  );
export type WindowInput = z.output<typeof windowBody>;

/** Any string: a value that is not a window id is simply not found (404). */
export const windowIdParams = z.object({ id: z.string().check(z.minLength(1)) });

const windowView = z.object({
  id: z.string(),
  serviceIds: z.array(z.string()),
  startsAt: z.string(),
  endsAt: z.string(),
  reason: z.string(),
  active: z.boolean().check(z.describe('Whether the window is open now')),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WindowView = z.output<typeof windowView>;

export const windowResponse = windowView;
export const windowsResponse = z.object({ maintenanceWindows: z.array(windowView) });
export const deletedWindowResponse = z.object({ id: z.string() });
