import * as z from 'zod/mini';

/** What the schedules routes answer in `data` (the route table's `response`). */
const restrictionsView = z.object({ daysOfWeek: z.array(z.int()), startTime: z.string(), endTime: z.string() });

export const scheduleView = z.object({
  id: z.string(),
  name: z.string(),
  timezone: z.string(),
  layers: z.array(
    z.object({
      start: z.iso.datetime(),
      rotationType: z.enum(['daily', 'weekly', 'custom']),
      rotationHours: z.optional(z.int()),
      handoffTime: z.string(),
      members: z.array(z.string()),
      restrictions: z.optional(restrictionsView),
    }),
  ),
  calendarUrl: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const overrideView = z.object({
  id: z.string(),
  scheduleId: z.string(),
  userId: z.string(),
  start: z.iso.datetime(),
  end: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  source: z.optional(
    z
      .literal('assignment')
      .check(
        z.describe('On the default schedule: an assignment made with POST /api/v1/assign-member, whose id it has'),
      ),
  ),
});

export const shiftView = z.object({
  userId: z.string(),
  start: z.iso.datetime(),
  end: z.iso.datetime(),
  source: z.union([
    z.object({ type: z.literal('layer'), layer: z.int() }),
    z.object({ type: z.literal('override'), overrideId: z.string() }),
  ]),
});

export const onCallView = z.object({ at: z.iso.datetime(), onCall: z.nullable(shiftView) });
export const deletedView = z.object({ id: z.string() });
