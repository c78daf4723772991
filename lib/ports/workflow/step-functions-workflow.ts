import { StartExecutionCommand, type SFNClient } from '@aws-sdk/client-sfn';
import type { Workflow, WorkflowName } from './workflow.ts';

export const createStepFunctionsWorkflow = (
  client: SFNClient,
  stateMachineArn: (workflow: WorkflowName) => string,
): Workflow => ({
  async start(workflow, input, name) {
    const result = await client.send(
      new StartExecutionCommand({ stateMachineArn: stateMachineArn(workflow), input: JSON.stringify(input), name }),
    );
    if (!result.executionArn) throw new Error(`workflow ${workflow} did not start`);
    return { executionId: result.executionArn };
  },
});
