import * as z from 'zod/mini';
import { storableNumber } from '#lib/store/stored-json.ts';
import { buildOutcome, codeHostEvent, describeRun } from '#lib/ingestion/code-host.ts';
import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact, optionalDateTime, optionalText } from '#lib/ingestion/schema-kit.ts';
import { SENDER, baseMetadata, repositorySchema, runStatusOf, type Delivery } from './common.ts';

const checkRunSchema = z.object({
  repository: repositorySchema,
  check_run: z.object({
    id: storableNumber,
    name: z.string(),
    status: optionalText,
    conclusion: optionalText,
    head_sha: z.string(),
    html_url: optionalText,
    details_url: optionalText,
    started_at: optionalDateTime,
    completed_at: optionalDateTime,
    app: z.nullish(z.object({ slug: optionalText })),
    check_suite: z.nullish(z.object({ head_branch: optionalText })),
    output: z.nullish(z.object({ title: optionalText, summary: optionalText })),
  }),
});

export const checkRun = (delivery: Delivery): NormalizedEvent => {
  const { repository, check_run: check } = parsePayload(SENDER, checkRunSchema, delivery.body);
  const status = runStatusOf(check.status, check.conclusion);
  const branch = check.check_suite?.head_branch ?? null;
  return {
    ...codeHostEvent({
      sender: SENDER,
      kind: 'check_run',
      ...buildOutcome(status, branch, repository.default_branch),
      name: describeRun(`Check "${check.name}"`, status, repository.full_name, branch),
      metadata: compact({
        ...baseMetadata(delivery),
        branch,
        commitSha: check.head_sha,
        check: check.name,
        app: check.app?.slug,
        status: check.status,
        conclusion: check.conclusion,
        outputTitle: check.output?.title,
        outputSummary: check.output?.summary,
        url: check.html_url,
        detailsUrl: check.details_url,
      }),
      triggeredAt: check.completed_at ?? check.started_at ?? delivery.receivedAt,
      fingerprint: fingerprintOf(repository.full_name, 'check_run', check.name, check.head_sha),
    }),
  };
};
