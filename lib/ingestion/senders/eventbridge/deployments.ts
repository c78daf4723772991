import * as z from 'zod/mini';
import {
  type ChangeInput,
  type ChangeProvider,
  type ChangeStatus,
  deploymentFailureSeverity,
} from '#lib/changes/change-input.ts';
import { codeHostOutcome } from '#lib/ingestion/code-host.ts';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { compact, lookupTable, optionalDateTime, optionalText } from '#lib/ingestion/schema-kit.ts';
import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import { type AwsEvent, envelopeMetadata, parseDetail, SENDER } from './aws-event.ts';

/** What a deployment event says, whichever AWS service sent it. */
interface Deployment {
  provider: Extract<ChangeProvider, `aws_${string}`>;
  id: string;
  /** The name of what is deployed (CodeDeploy application, pipeline, ECS service): the change's service. */
  deployed: string;
  environment: string;
  status: ChangeStatus;
  state: string;
  /** The provider's time of this state. */
  at: string;
  details: Record<string, unknown>;
}

/**
 * A deployment as a CHANGE ticket, placed at the event's `time`. Its `repository` is the name of what was
 * deployed, which is how the analysis links a change to a service (docs/analysis.md: a repository named like
 * the service), so an AWS deploy of `checkout` is a suspect of a `checkout` incident as a code-host deploy is.
 * A failed deployment is also a problem signal; any other state a LOW record.
 */
const deploymentEvent = (event: AwsEvent, deployment: Deployment, what: string): NormalizedEvent => {
  const { provider, id, deployed, environment, status, state, at } = deployment;
  const target = environment ? `${deployed} to ${environment}` : deployed;
  const change: ChangeInput = {
    changeKey: `${provider}-${id}`,
    provider,
    providerDeploymentId: id,
    summary: `Deploy ${target}: ${what} ${state}`,
    status,
    environment,
    repository: deployed,
    commitSha: null,
    deployer: null,
    updatedAt: at,
    occurredAt: event.time,
  };
  const outcome = codeHostOutcome('deployment', status === 'FAILED', deploymentFailureSeverity(environment));
  return {
    signal: {
      name: `${what} of ${target}: ${state}`,
      source: SENDER,
      type: outcome.type,
      severity: outcome.severity,
      serviceId: deployed,
      metadata: compact({
        ...envelopeMetadata(event),
        state,
        environment,
        ...deployment.details,
      }),
      triggeredAt: at,
    },
    fingerprint: fingerprintOf(provider, id),
    action: outcome.action,
    change,
  };
};

/**
 * How one AWS service reports deployments: the schema of its `detail`, what each of its states means, and where
 * in the detail (or the event) each part of a deployment is. A state it does not list is PENDING.
 */
interface DeploymentSource<S extends z.ZodMiniType> {
  provider: Deployment['provider'];
  /** How the summary names one deployment: `CodeDeploy deployment`. */
  what: string;
  detail: S;
  statuses: ReadonlyMap<string, ChangeStatus>;
  read: (detail: z.output<S>, event: AwsEvent) => Omit<Deployment, 'provider' | 'status'>;
}

/** The normalizer of one AWS service's deployment events. */
const deploymentsOf =
  <S extends z.ZodMiniType>(source: DeploymentSource<S>) =>
  (event: AwsEvent): NormalizedEvent => {
    const deployment = source.read(parseDetail(source.detail, event), event);
    const status = source.statuses.get(deployment.state) ?? 'PENDING';
    return deploymentEvent(event, { ...deployment, provider: source.provider, status }, source.what);
  };

/** "CodeDeploy Deployment State-change Notification": the application is the service, its group the environment. */
export const codeDeploy = deploymentsOf({
  provider: 'aws_codedeploy',
  what: 'CodeDeploy deployment',
  detail: z.object({
    deploymentId: z.string().check(z.minLength(1)),
    application: z.string().check(z.minLength(1)),
    deploymentGroup: optionalText,
    state: z.string(),
    instanceGroupId: optionalText,
  }),
  // READY is a blue/green deployment waiting to reroute traffic: still under way.
  statuses: lookupTable<ChangeStatus>({
    START: 'IN_PROGRESS',
    READY: 'IN_PROGRESS',
    SUCCESS: 'SUCCEEDED',
    FAILURE: 'FAILED',
    STOP: 'CANCELLED',
  }),
  read: (detail, event) => ({
    id: detail.deploymentId,
    deployed: detail.application,
    environment: detail.deploymentGroup ?? '',
    state: detail.state,
    at: event.time,
    details: { deploymentId: detail.deploymentId, deploymentGroup: detail.deploymentGroup },
  }),
});

/** "CodePipeline Pipeline Execution State Change": the pipeline is the service; a pipeline names no environment. */
export const codePipeline = deploymentsOf({
  provider: 'aws_codepipeline',
  what: 'CodePipeline execution',
  detail: z.object({
    pipeline: z.string().check(z.minLength(1)),
    'execution-id': z.string().check(z.minLength(1)),
    state: z.string(),
    'execution-trigger': z.nullish(z.object({ 'trigger-type': optionalText, 'trigger-detail': optionalText })),
  }),
  // SUPERSEDED: a newer execution overtook this one, which released nothing.
  statuses: lookupTable<ChangeStatus>({
    STARTED: 'IN_PROGRESS',
    RESUMED: 'IN_PROGRESS',
    STOPPING: 'IN_PROGRESS',
    SUCCEEDED: 'SUCCEEDED',
    FAILED: 'FAILED',
    CANCELED: 'CANCELLED',
    STOPPED: 'CANCELLED',
    SUPERSEDED: 'CANCELLED',
  }),
  read: (detail, event) => ({
    id: detail['execution-id'],
    deployed: detail.pipeline,
    environment: '',
    state: detail.state,
    at: event.time,
    details: {
      executionId: detail['execution-id'],
      trigger: detail['execution-trigger']?.['trigger-type'],
      triggeredBy: detail['execution-trigger']?.['trigger-detail'],
    },
  }),
});

/** `arn:aws:ecs:<region>:<account>:service/<cluster>/<service>` into its cluster and service. */
const ecsServiceOf = (resources: readonly string[]): { cluster: string; service: string } | undefined => {
  for (const arn of resources) {
    const match = /:service\/([^/]+)\/([^/]+)$/.exec(arn);
    if (match) return { cluster: match[1] as string, service: match[2] as string };
  }
  return undefined;
};

/** "ECS Deployment State Change": the service of its resource ARN is the service, its cluster the environment. */
export const ecsDeployment = deploymentsOf({
  provider: 'aws_ecs',
  what: 'ECS deployment',
  detail: z.object({
    eventName: z.string(),
    deploymentId: z.string().check(z.minLength(1)),
    eventType: optionalText,
    updatedAt: optionalDateTime,
    reason: optionalText,
  }),
  statuses: lookupTable<ChangeStatus>({
    SERVICE_DEPLOYMENT_IN_PROGRESS: 'IN_PROGRESS',
    SERVICE_DEPLOYMENT_COMPLETED: 'SUCCEEDED',
    SERVICE_DEPLOYMENT_FAILED: 'FAILED',
  }),
  read: (detail, event) => {
    const target = ecsServiceOf(event.resources);
    return {
      id: detail.deploymentId,
      deployed: target?.service ?? detail.deploymentId,
      environment: target?.cluster ?? '',
      state: detail.eventName,
      at: detail.updatedAt ?? event.time,
      details: { deploymentId: detail.deploymentId, reason: detail.reason, eventType: detail.eventType },
    };
  },
});
