import * as z from 'zod/mini';
import { storableNumber } from '#lib/store/stored-json.ts';
import { codeHostEvent, providerKeyOf } from '#lib/ingestion/code-host.ts';
import { deploymentFailureSeverity } from '#lib/changes/change-input.ts';
import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import type { ChangeInput, ChangeStatus } from '#lib/changes/change-input.ts';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact, loginSchema, lookupTable, optionalDateTime, optionalText } from '#lib/ingestion/schema-kit.ts';
import { PROVIDER, SENDER, baseMetadata, repositorySchema, type Delivery } from './common.ts';

const deploymentSchema = z.object({
  id: storableNumber,
  sha: optionalText,
  ref: optionalText,
  environment: z.string(),
  description: optionalText,
  creator: loginSchema,
  created_at: optionalDateTime,
  updated_at: optionalDateTime,
});

const deploymentEventSchema = z.object({ repository: repositorySchema, deployment: deploymentSchema });

const deploymentStatusEventSchema = z.extend(deploymentEventSchema, {
  deployment_status: z.object({
    state: z.string(),
    environment: optionalText,
    description: optionalText,
    target_url: optionalText,
    environment_url: optionalText,
    log_url: optionalText,
    created_at: optionalDateTime,
    updated_at: optionalDateTime,
  }),
});

const CHANGE_STATUSES = lookupTable<ChangeStatus>({
  pending: 'PENDING',
  queued: 'PENDING',
  waiting: 'PENDING',
  in_progress: 'IN_PROGRESS',
  success: 'SUCCEEDED',
  failure: 'FAILED',
  error: 'FAILED',
  inactive: 'INACTIVE',
});

/** `deployment` (created: PENDING) and `deployment_status`: a change; a failed or errored deployment is a problem. */
export const deployment = (delivery: Delivery): NormalizedEvent => {
  const isStatus = delivery.event === 'deployment_status';
  const payload = isStatus
    ? parsePayload(SENDER, deploymentStatusEventSchema, delivery.body)
    : { ...parsePayload(SENDER, deploymentEventSchema, delivery.body), deployment_status: undefined };
  const { repository, deployment: deployed, deployment_status: state } = payload;
  const environment = state?.environment || deployed.environment;
  const stateName = state?.state ?? 'pending';
  const status = CHANGE_STATUSES.get(stateName) ?? 'PENDING';
  const updatedAt = isStatus
    ? (state?.updated_at ?? state?.created_at ?? delivery.receivedAt)
    : (deployed.created_at ?? deployed.updated_at ?? delivery.receivedAt);
  const target = `${repository.full_name}${deployed.ref ? `@${deployed.ref}` : ''} to ${environment}`;
  const change: ChangeInput = {
    changeKey: providerKeyOf(PROVIDER, String(deployed.id)),
    provider: PROVIDER,
    providerDeploymentId: String(deployed.id),
    summary: `Deploy ${target}${deployed.description ? `: ${deployed.description}` : ''}`,
    status,
    environment,
    repository: repository.full_name,
    commitSha: deployed.sha ?? null,
    deployer: deployed.creator?.email ?? deployed.creator?.login ?? null,
    updatedAt,
    // The deployment's own creation, which every event about it repeats: a late delivery keeps its place.
    ...(deployed.created_at && { occurredAt: deployed.created_at }),
  };
  return {
    ...codeHostEvent({
      sender: SENDER,
      kind: 'deployment',
      failed: status === 'FAILED',
      failedSeverity: deploymentFailureSeverity(environment),
      name: `Deployment of ${target}: ${stateName}`,
      metadata: compact({
        ...baseMetadata(delivery),
        deploymentId: deployed.id,
        environment,
        ref: deployed.ref,
        commitSha: deployed.sha,
        state: stateName,
        description: state?.description || deployed.description,
        url: state?.target_url || state?.log_url,
        environmentUrl: state?.environment_url,
      }),
      triggeredAt: updatedAt,
      fingerprint: fingerprintOf(repository.full_name, 'deployment', deployed.id),
    }),
    change,
  };
};
