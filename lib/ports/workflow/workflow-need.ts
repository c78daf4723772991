import { SFNClient } from '@aws-sdk/client-sfn';
import { ENV, requiredEnv } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { createStepFunctionsWorkflow } from './step-functions-workflow.ts';

/** Starting the analysis state machine. */
export const analysisWorkflow: PortNeed = {
  binding: { kind: 'workflow' },
  build: {
    workflow: (env) =>
      createStepFunctionsWorkflow(new SFNClient({}), () => requiredEnv(env, ENV.analysisStateMachineArn)),
  },
};
