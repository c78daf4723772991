import * as z from 'zod/mini';
import { REPOSITORY_PATH } from '#lib/pipelines/pipeline-run-input.ts';
import type { PipelineJobStatus, PipelineRunStatus } from '#lib/pipelines/pipeline-run-input.ts';
import { loginSchema, optionalText } from '#lib/ingestion/schema-kit.ts';

export const SENDER = 'codehost-a';
export const PROVIDER = 'codehost_a';

export const repositorySchema = z.object({
  full_name: z.string().check(z.regex(REPOSITORY_PATH, 'Invalid input: expected owner/repo')),
  html_url: optionalText,
  default_branch: optionalText,
});

/**
 * What every event may carry. The spec requires `action` and `repository`, but pushes and pings have no
 * `action` and account-level events (installation, organization, ...) no `repository`: the event name comes
 * from `X-GitHub-Event`, and `repository` is required only by the events that are about one.
 */
export const envelopeSchema = z.object({
  action: z.optional(z.string()),
  repository: z.nullish(repositorySchema),
  sender: loginSchema,
  organization: loginSchema,
  installation: z.nullish(z.object({ account: loginSchema })),
});

export interface Delivery {
  event: string;
  envelope: z.output<typeof envelopeSchema>;
  body: unknown;
  receivedAt: string;
}

/** Conclusions that mean the thing is broken; `cancelled`, `skipped`, `stale`, `action_required` are not. */
const FAILURES = new Set(['failure', 'timed_out', 'startup_failure']);

export const runStatusOf = (
  status: string | null | undefined,
  conclusion: string | null | undefined,
): PipelineRunStatus => {
  if (status !== 'completed') return 'in_progress';
  if (FAILURES.has(conclusion ?? '')) return 'failure';
  return conclusion === 'success' || conclusion === 'neutral' ? 'success' : 'cancelled';
};

export const jobStatusOf = (conclusion: string | null | undefined): PipelineJobStatus => {
  if (FAILURES.has(conclusion ?? '')) return 'failure';
  if (conclusion === 'success' || conclusion === 'neutral') return 'success';
  return conclusion === 'skipped' ? 'skipped' : 'cancelled';
};

export const baseMetadata = ({ event, envelope }: Delivery) => ({
  event,
  action: envelope.action,
  repository: envelope.repository?.full_name,
  repositoryUrl: envelope.repository?.html_url,
  sender: envelope.sender?.login,
});
