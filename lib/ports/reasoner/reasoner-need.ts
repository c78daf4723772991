import { ENV } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { onFirstUse } from '../on-first-use.ts';
import { defaultReasoner } from './default-reasoner.ts';
import type { Reasoner } from './reasoner.ts';

/**
 * The analysis engine's reasoning: the default engine, or Amazon Bedrock when the stack was deployed with a
 * model (`-c bedrockModelId=...`, which sets `BEDROCK_MODEL_ID` and grants that model alone), the default
 * engine then answering whenever the model fails.
 */
export const reasoning: PortNeed = {
  binding: { kind: 'reasoner' },
  build: {
    reasoner: (env): Reasoner => {
      const modelId = env[ENV.bedrockModelId];
      if (!modelId) return defaultReasoner;
      const bedrock = onFirstUse(async () => {
        const [{ BedrockRuntimeClient }, { createBedrockReasoner }] = await Promise.all([
          import('@aws-sdk/client-bedrock-runtime'),
          import('./bedrock-reasoner.ts'),
        ]);
        return createBedrockReasoner(new BedrockRuntimeClient({}), modelId, defaultReasoner);
      });
      return {
        hypothesize: async (evidence) => (await bedrock()).hypothesize(evidence),
        assessImpact: async (evidence, hypothesis) => (await bedrock()).assessImpact(evidence, hypothesis),
        planRemediation: async (evidence, hypothesis, impact) =>
          (await bedrock()).planRemediation(evidence, hypothesis, impact),
      };
    },
  },
};
