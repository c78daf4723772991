import * as z from 'zod/mini';
import { storableNumber } from '#lib/store/stored-json.ts';
import { codeHostEvent, providerKeyOf } from '#lib/ingestion/code-host.ts';
import { deploymentFailureSeverity } from '#lib/changes/change-input.ts';
import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import type { ChangeStatus } from '#lib/changes/change-input.ts';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact, lookupTable, optionalDateTime, optionalText } from '#lib/ingestion/schema-kit.ts';
import { PROVIDER, SENDER, baseMetadata, projectSchema, type Delivery } from './common.ts';

const deploymentSchema = z.object({
  project: projectSchema,
  status: z.string(),
  status_changed_at: optionalDateTime,
  deployment_id: storableNumber,
  deployable_url: optionalText,
  environment: z.string(),
  environment_external_url: optionalText,
  short_sha: optionalText,
  commit_url: optionalText,
  commit_title: optionalText,
  ref: optionalText,
});

const CHANGE_STATUSES = lookupTable<ChangeStatus>({
  created: 'PENDING',
  blocked: 'PENDING',
  running: 'IN_PROGRESS',
  success: 'SUCCEEDED',
  failed: 'FAILED',
  canceled: 'CANCELLED',
});

/** The hook gives the full commit only inside `commit_url`, beside the short `short_sha`. */
const commitShaOf = (commitUrl: string | null | undefined, shortSha: string | null | undefined): string | null =>
  /\/commit\/([0-9a-f]{40})$/.exec(commitUrl ?? '')?.[1] ?? shortSha ?? null;

export const deployment = (delivery: Delivery): NormalizedEvent => {
  const payload = parsePayload(SENDER, deploymentSchema, delivery.body);
  const repository = payload.project.path_with_namespace;
  const status = CHANGE_STATUSES.get(payload.status) ?? 'PENDING';
  const updatedAt = payload.status_changed_at ?? delivery.receivedAt;
  const target = `${repository}${payload.ref ? `@${payload.ref}` : ''} to ${payload.environment}`;
  return {
    ...codeHostEvent({
      sender: SENDER,
      kind: 'deployment',
      failed: status === 'FAILED',
      failedSeverity: deploymentFailureSeverity(payload.environment),
      name: `Deployment of ${target}: ${payload.status}`,
      metadata: compact({
        ...baseMetadata(delivery),
        deploymentId: payload.deployment_id,
        environment: payload.environment,
        environmentUrl: payload.environment_external_url,
        ref: payload.ref,
        commitSha: commitShaOf(payload.commit_url, payload.short_sha),
        commitTitle: payload.commit_title,
        status: payload.status,
        url: payload.deployable_url,
      }),
      triggeredAt: updatedAt,
      fingerprint: fingerprintOf(repository, 'deployment', payload.deployment_id),
    }),
    change: {
      changeKey: providerKeyOf(PROVIDER, String(payload.deployment_id)),
      provider: PROVIDER,
      providerDeploymentId: String(payload.deployment_id),
      summary: `Deploy ${target}${payload.commit_title ? `: ${payload.commit_title}` : ''}`,
      status,
      environment: payload.environment,
      repository,
      commitSha: commitShaOf(payload.commit_url, payload.short_sha),
      deployer: delivery.user?.email ?? delivery.user?.username ?? null,
      updatedAt,
      // The hook dates only its status; the change is placed at the first status it was heard of.
      ...(payload.status_changed_at && { occurredAt: payload.status_changed_at }),
    },
  };
};
