import type { CHANGE_STATUSES } from '#lib/tickets/ticket-statuses.ts';
import type { SignalSeverity } from '#lib/signals/signal-event.ts';
import type { PipelineProvider } from '#lib/pipelines/pipeline-run-input.ts';

/** Who reported the deployment: a code host, or an AWS deployment service through EventBridge. */
export type ChangeProvider =
  | Exclude<PipelineProvider, 'codehost_c'>
  | 'aws_codedeploy'
  | 'aws_codepipeline'
  | 'aws_ecs'
  | 'events_v2';

export type ChangeStatus = (typeof CHANGE_STATUSES)[number];

/** A deployment, which becomes a CHANGE ticket; the store upserts it by `changeKey`. */
export interface ChangeInput {
  /** `<provider>-<deploymentId>`. */
  changeKey: string;
  provider: ChangeProvider;
  providerDeploymentId: string;
  summary: string;
  status: ChangeStatus;
  environment: string;
  repository: string;
  commitSha: string | null;
  /** E-mail when the sender gives one, else the login. */
  deployer: string | null;
  /** The provider's time of this state, so a late, older event never overwrites a newer one. */
  updatedAt: string;
  /**
   * When the provider says the deployment happened (code host A's `deployment.created_at`, code host B's
   * `status_changed_at`, an EventBridge event's `time`): the change is placed there, as its `createdAt`, in the
   * ticket list and the analysis' window of recent changes, however late the event came. Without it, the time
   * the service first heard of the deployment. The stored change keeps that first arrival as `receivedAt`.
   */
  occurredAt?: string;
}

/** A failed deployment to production is urgent; to any other environment, less so. */
export const deploymentFailureSeverity = (environment: string): SignalSeverity =>
  /\bprod(uction)?\b/i.test(environment) ? 'HIGH' : 'MEDIUM';
