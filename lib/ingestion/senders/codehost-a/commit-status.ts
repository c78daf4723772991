import * as z from 'zod/mini';
import { codeHostEvent } from '#lib/ingestion/code-host.ts';
import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact, optionalDateTime, optionalText } from '#lib/ingestion/schema-kit.ts';
import { SENDER, baseMetadata, repositorySchema, type Delivery } from './common.ts';

const commitStatusSchema = z.object({
  repository: repositorySchema,
  sha: z.string(),
  state: z.string(),
  context: z.string(),
  description: optionalText,
  target_url: optionalText,
  branches: z.nullish(z.array(z.object({ name: z.string() }))),
  updated_at: optionalDateTime,
});

/** A commit status (CI systems that report through the statuses API): `failure` and `error` are problems. */
export const commitStatus = (delivery: Delivery): NormalizedEvent => {
  const payload = parsePayload(SENDER, commitStatusSchema, delivery.body);
  const repository = payload.repository.full_name;
  const branches = payload.branches?.map((branch) => branch.name) ?? [];
  const onDefaultBranch = branches.includes(payload.repository.default_branch ?? '');
  return {
    ...codeHostEvent({
      sender: SENDER,
      kind: 'commit_status',
      failed: payload.state === 'failure' || payload.state === 'error',
      failedSeverity: onDefaultBranch ? 'HIGH' : 'MEDIUM',
      name: `Status "${payload.context}" is ${payload.state} for ${repository}@${payload.sha.slice(0, 7)}`,
      metadata: compact({
        ...baseMetadata(delivery),
        commitSha: payload.sha,
        context: payload.context,
        state: payload.state,
        description: payload.description,
        branches,
        url: payload.target_url,
      }),
      triggeredAt: payload.updated_at ?? delivery.receivedAt,
      fingerprint: fingerprintOf(repository, 'status', payload.context, payload.sha),
    }),
  };
};
