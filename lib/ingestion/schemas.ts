import * as z from 'zod/mini';
import { INGESTION_SENDERS } from './normalized-event.ts';

/** What an ingestion POST answers: the first event's signal, as the spec shows, and each event's outcome. */
export const deliveryData = z.object({
  signalId: z.string(),
  deduplicated: z.boolean(),
  source: z.enum(INGESTION_SENDERS),
  signals: z.array(
    z.object({
      signalId: z.string(),
      deduplicated: z.boolean(),
      resolved: z.boolean(),
      pipelineRunId: z.optional(z.string()),
      changeId: z.optional(z.string()),
      queued: z.optional(z.literal(true)),
    }),
  ),
});

/** What `/ingestion/cloudwatch` answers an SNS subscription or unsubscribe confirmation (200, nothing stored). */
export const snsConfirmationData = z.object({
  topicArn: z.string(),
  subscription: z.enum(['confirmed', 'ended']),
});
