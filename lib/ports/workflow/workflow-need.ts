import { ENV, requiredEnv } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { newAwsClient } from '../aws-client.ts';

/** Starting the analysis state machine. */
export const analysisWorkflow: PortNeed = {
  binding: { kind: 'workflow' },
  build: {
    workflow: (env) => {
      const stepFunctions = onFirstUse(async () => {
        const [{ SFNClient }, { createStepFunctionsWorkflow }] = await Promise.all([
          import('@aws-sdk/client-sfn'),
          import('./step-functions-workflow.ts'),
        ]);
        return createStepFunctionsWorkflow(newAwsClient(SFNClient, {}), () =>
          requiredEnv(env, ENV.analysisStateMachineArn),
        );
      });
      return { start: async (workflow, input, name) => (await stepFunctions()).start(workflow, input, name) };
    },
  },
};
