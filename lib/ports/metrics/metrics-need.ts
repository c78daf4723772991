import { Metrics as PowertoolsMetrics } from '@aws-lambda-powertools/metrics';
import { ENV, requiredEnv } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { createEmfMetrics } from './emf-metrics.ts';

/**
 * Business metrics in the service's namespace. The only dimension is Powertools' `service`, the stack's
 * name, so two stages in one account stay apart: every further dimension value is one more metric billed.
 */
export const metrics: PortNeed = {
  binding: { kind: 'metrics' },
  build: {
    metrics: (env) =>
      createEmfMetrics(
        new PowertoolsMetrics({
          namespace: requiredEnv(env, ENV.metricsNamespace),
          serviceName: requiredEnv(env, ENV.serviceName),
        }),
      ),
  },
};
