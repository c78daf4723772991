import * as z from 'zod/mini';
import { storableNumber } from '#lib/store/stored-json.ts';
import { branchFromRef } from '#lib/ingestion/code-host.ts';
import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact, optionalDateTime, optionalText } from '#lib/ingestion/schema-kit.ts';
import { SENDER, baseMetadata, projectSchema, type Delivery } from './common.ts';

const pushSchema = z.object({
  project: projectSchema,
  ref: z.string(),
  before: optionalText,
  after: z.string(),
  checkout_sha: optionalText,
  user_username: optionalText,
  user_email: optionalText,
  total_commits_count: z.nullish(storableNumber),
  commits: z.nullish(z.array(z.object({ message: optionalText, timestamp: optionalDateTime, url: optionalText }))),
});

/** Push and Tag Push Hooks. */
export const push = (delivery: Delivery): NormalizedEvent => {
  const payload = parsePayload(SENDER, pushSchema, delivery.body);
  const repository = payload.project.path_with_namespace;
  const count = payload.total_commits_count ?? payload.commits?.length ?? 0;
  const head = payload.commits?.at(-1);
  return {
    signal: {
      name: `Push to ${repository}@${branchFromRef(payload.ref)} (${count} commit${count === 1 ? '' : 's'})`,
      source: SENDER,
      type: delivery.kind,
      severity: 'LOW',
      metadata: compact({
        ...baseMetadata(delivery),
        user: payload.user_username,
        pusher: payload.user_email,
        ref: payload.ref,
        before: payload.before,
        after: payload.after,
        commitCount: count,
        headCommitMessage: head?.message,
        url: head?.url,
      }),
      triggeredAt: head?.timestamp ?? delivery.receivedAt,
    },
    fingerprint: fingerprintOf(repository, delivery.kind, payload.ref, payload.after),
    action: 'record',
  };
};
