import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { ENV, requiredEnv } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { createApiGatewayUsagePlan } from './api-gateway-usage-plan.ts';

/** Mirroring API keys into the API Gateway usage plan. */
export const usagePlan: PortNeed = {
  binding: { kind: 'usagePlan' },
  build: {
    usagePlan: (env) => createApiGatewayUsagePlan(new APIGatewayClient({}), () => requiredEnv(env, ENV.usagePlanId)),
  },
};

/** The value of the usage-plan key that requests without a vouched API key are counted under. */
export const unkeyedUsage: PortNeed = {
  binding: { kind: 'unkeyedUsage' },
  build: { unkeyedUsageKey: (env) => requiredEnv(env, ENV.unkeyedUsageKey) },
};
