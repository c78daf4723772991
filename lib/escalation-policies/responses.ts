import * as z from 'zod/mini';

/** What the escalation-policy routes answer in `data` (the route table's `response`). */
const targetView = z.union([
  z.object({ type: z.literal('schedule'), id: z.string() }),
  z.object({ type: z.literal('member'), id: z.string() }),
  z.object({ type: z.literal('email'), address: z.string() }),
]);

export const escalationPolicyView = z.object({
  id: z.string(),
  name: z.string(),
  levels: z.array(z.object({ delayMinutes: z.int(), targets: z.array(targetView) })),
  repeat: z.int(),
  ackTimeoutMinutes: z.optional(z.int()),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const deletedPolicyView = z.object({ id: z.string() });
