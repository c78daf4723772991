import { ENV, requiredEnv } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { newAwsClient } from '../aws-client.ts';

/** Mirroring API keys into the API Gateway usage plan. */
export const usagePlan: PortNeed = {
  binding: { kind: 'usagePlan' },
  build: {
    usagePlan: (env) => {
      const gateway = onFirstUse(async () => {
        const [{ APIGatewayClient }, { createApiGatewayUsagePlan }] = await Promise.all([
          import('@aws-sdk/client-api-gateway'),
          import('./api-gateway-usage-plan.ts'),
        ]);
        return createApiGatewayUsagePlan(newAwsClient(APIGatewayClient, {}), () => requiredEnv(env, ENV.usagePlanId));
      });
      return {
        register: async (key) => (await gateway()).register(key),
        setEnabled: async (mirrorId, enabled) => (await gateway()).setEnabled(mirrorId, enabled),
        remove: async (mirrorId) => (await gateway()).remove(mirrorId),
      };
    },
  },
};

/** The value of the usage-plan key that requests without a vouched API key are counted under. */
export const unkeyedUsage: PortNeed = {
  binding: { kind: 'unkeyedUsage' },
  build: { unkeyedUsageKey: (env) => requiredEnv(env, ENV.unkeyedUsageKey) },
};
