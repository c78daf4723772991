import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { ENV, requiredEnv } from '../env.ts';
import type { PortNeed } from '../need.ts';
import type { Reasoner, Reasoning } from './reasoner.ts';
import { newAwsClient } from '../aws-client.ts';

/**
 * The analysis engine's reasoning: the rules alone, or Amazon Bedrock when the stack was deployed with a
 * model (`-c bedrockModelId=...`, which sets `BEDROCK_MODEL_ID` and grants that model alone, and
 * `BEDROCK_CALL_TIMEOUT_MS` from the function's timeout), the rules then answering whenever the model
 * fails or runs out of its budget. The model's client loads on first use, so the routes that never
 * reason (most of the incidents group's) do not carry it at cold start.
 */
export const reasoning: PortNeed = {
  binding: { kind: 'reasoner' },
  build: {
    reasoner: (env): Reasoning => {
      const modelId = env[ENV.bedrockModelId];
      if (!modelId) return (rules) => rules;
      // Read at init, so a function deployed with a model but without its call budget fails at once.
      const callTimeoutMs = Number(requiredEnv(env, ENV.bedrockCallTimeoutMs));
      let model: Reasoner | undefined;
      return (rules) => {
        model ??= bedrockOnFirstUse(modelId, rules, callTimeoutMs);
        return model;
      };
    },
  },
};

const bedrockOnFirstUse = (modelId: string, rules: Reasoner, callTimeoutMs: number): Reasoner => {
  const engine = onFirstUse(async (): Promise<Reasoner> => {
    const [{ BedrockRuntimeClient }, { createBedrockReasoner }] = await Promise.all([
      import('@aws-sdk/client-bedrock-runtime'),
      import('./bedrock-reasoner.ts'),
    ]);
    return createBedrockReasoner(newAwsClient(BedrockRuntimeClient, {}), modelId, rules, callTimeoutMs);
  });
  return {
    hypothesize: async (evidence) => (await engine()).hypothesize(evidence),
    assessImpact: async (evidence, hypothesis) => (await engine()).assessImpact(evidence, hypothesis),
    planRemediation: async (evidence, hypothesis, impact) =>
      (await engine()).planRemediation(evidence, hypothesis, impact),
  };
};
