import { ENV, requiredEnv } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { onFirstUse } from '../on-first-use.ts';
import type { Reasoner } from './reasoner.ts';

/**
 * The analysis engine's reasoning: the default engine, or Amazon Bedrock when the stack was deployed with a
 * model (`-c bedrockModelId=...`, which sets `BEDROCK_MODEL_ID` and grants that model alone, and
 * `BEDROCK_CALL_TIMEOUT_MS` from the function's timeout), the default engine then answering whenever the
 * model fails or runs out of its budget. Both load on first use, so the routes that never
 * reason (most of the incidents group's) do not carry them at cold start.
 */
export const reasoning: PortNeed = {
  binding: { kind: 'reasoner' },
  build: {
    reasoner: (env): Reasoner => {
      const modelId = env[ENV.bedrockModelId];
      // Read at init, so a function deployed with a model but without its call budget fails at once.
      const callTimeoutMs = modelId ? Number(requiredEnv(env, ENV.bedrockCallTimeoutMs)) : 0;
      const engine = onFirstUse(async (): Promise<Reasoner> => {
        const { defaultReasoner } = await import('./default-reasoner.ts');
        if (!modelId) return defaultReasoner;
        const [{ BedrockRuntimeClient }, { createBedrockReasoner }] = await Promise.all([
          import('@aws-sdk/client-bedrock-runtime'),
          import('./bedrock-reasoner.ts'),
        ]);
        return createBedrockReasoner(new BedrockRuntimeClient({}), modelId, defaultReasoner, callTimeoutMs);
      });
      return {
        hypothesize: async (evidence) => (await engine()).hypothesize(evidence),
        assessImpact: async (evidence, hypothesis) => (await engine()).assessImpact(evidence, hypothesis),
        planRemediation: async (evidence, hypothesis, impact) =>
          (await engine()).planRemediation(evidence, hypothesis, impact),
      };
    },
  },
};
