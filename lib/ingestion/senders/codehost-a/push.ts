import * as z from 'zod/mini';
import { branchFromRef } from '#lib/ingestion/code-host.ts';
import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact, optionalDateTime, optionalText } from '#lib/ingestion/schema-kit.ts';
import { SENDER, baseMetadata, repositorySchema, type Delivery } from './common.ts';

const pushSchema = z.object({
  repository: repositorySchema,
  ref: z.string(),
  before: optionalText,
  after: z.string(),
  created: z.nullish(z.boolean()),
  deleted: z.nullish(z.boolean()),
  forced: z.nullish(z.boolean()),
  compare: optionalText,
  commits: z.nullish(z.array(z.unknown())),
  head_commit: z.nullish(z.object({ message: optionalText, timestamp: optionalDateTime, url: optionalText })),
  pusher: z.nullish(z.object({ name: optionalText, email: optionalText })),
});

export const push = (delivery: Delivery): NormalizedEvent => {
  const payload = parsePayload(SENDER, pushSchema, delivery.body);
  const repository = payload.repository.full_name;
  const commitCount = payload.commits?.length ?? 0;
  const commits = `${commitCount} commit${commitCount === 1 ? '' : 's'}`;
  return {
    signal: {
      name: `Push to ${repository}@${branchFromRef(payload.ref)} (${commits})`,
      source: SENDER,
      type: 'push',
      severity: 'LOW',
      metadata: compact({
        ...baseMetadata(delivery),
        ref: payload.ref,
        before: payload.before,
        after: payload.after,
        created: payload.created,
        deleted: payload.deleted,
        forced: payload.forced,
        commitCount,
        headCommitMessage: payload.head_commit?.message,
        pusher: payload.pusher?.email ?? payload.pusher?.name,
        url: payload.compare,
      }),
      triggeredAt: payload.head_commit?.timestamp ?? delivery.receivedAt,
    },
    fingerprint: fingerprintOf(repository, 'push', payload.ref, payload.after),
    action: 'record',
  };
};
