import * as z from 'zod/mini';
import { storableNumber } from '#lib/store/stored-json.ts';
import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact, loginSchema, optionalDateTime, optionalText } from '#lib/ingestion/schema-kit.ts';
import { SENDER, baseMetadata, repositorySchema, type Delivery } from './common.ts';

const pullRequestSchema = z.object({
  repository: repositorySchema,
  number: storableNumber,
  pull_request: z.object({
    title: z.string(),
    html_url: optionalText,
    state: optionalText,
    merged: z.nullish(z.boolean()),
    user: loginSchema,
    head: z.nullish(z.object({ ref: optionalText })),
    base: z.nullish(z.object({ ref: optionalText })),
    updated_at: optionalDateTime,
  }),
});

export const pullRequest = (delivery: Delivery): NormalizedEvent => {
  const { repository, number, pull_request: pr } = parsePayload(SENDER, pullRequestSchema, delivery.body);
  return {
    signal: {
      name: `Pull request #${number} ${delivery.envelope.action ?? 'updated'} in ${repository.full_name}: ${pr.title}`,
      source: SENDER,
      type: 'pull_request',
      severity: 'LOW',
      metadata: compact({
        ...baseMetadata(delivery),
        number,
        title: pr.title,
        state: pr.state,
        merged: pr.merged,
        author: pr.user?.login,
        headBranch: pr.head?.ref,
        baseBranch: pr.base?.ref,
        url: pr.html_url,
      }),
      triggeredAt: pr.updated_at ?? delivery.receivedAt,
    },
    fingerprint: fingerprintOf(repository.full_name, 'pull_request', number),
    action: 'record',
  };
};
