import type { SignalSeverity } from '#lib/signals/signal-event.ts';
import type { PipelineProvider } from '#lib/pipelines/pipeline-run-input.ts';

export type ChangeStatus = 'PENDING' | 'IN_PROGRESS' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED' | 'INACTIVE';

/** A deployment, which becomes a CHANGE ticket; the store upserts it by `changeKey`. */
export interface ChangeInput {
  /** `<provider>-<deploymentId>`. */
  changeKey: string;
  provider: Exclude<PipelineProvider, 'codehost_c'>;
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
}

/** A failed deployment to production is urgent; to any other environment, less so. */
export const deploymentFailureSeverity = (environment: string): SignalSeverity =>
  /\bprod(uction)?\b/i.test(environment) ? 'HIGH' : 'MEDIUM';
