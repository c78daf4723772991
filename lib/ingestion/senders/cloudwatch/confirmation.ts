import * as z from 'zod/mini';

/** What the route answers an SNS subscription or unsubscribe confirmation (200, nothing stored). */
export const snsConfirmationData = z.object({
  topicArn: z.string(),
  subscription: z.enum(['confirmed', 'ended']),
});

/** What a confirmation message did: the subscription confirmed, or SNS telling us it has ended. */
export type SnsConfirmation = z.output<typeof snsConfirmationData>;
