import { ENV, requiredEnv } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { createEmfMetrics } from './emf-metrics.ts';

/**
 * Business metrics in the service's namespace. The only dimension is `service`, the stack's name, so two
 * stages in one account stay apart: every further dimension value is one more metric billed.
 */
export const metrics: PortNeed = {
  binding: { kind: 'metrics' },
  build: {
    metrics: (env) =>
      createEmfMetrics({
        namespace: requiredEnv(env, ENV.metricsNamespace),
        service: requiredEnv(env, ENV.serviceName),
      }),
  },
};
