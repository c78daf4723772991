import * as z from 'zod/mini';
import { INGESTION_SENDERS } from './senders/index.ts';

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
