const WORKFLOW_NAMES = ['analysis'] as const;
export type WorkflowName = (typeof WORKFLOW_NAMES)[number];

interface WorkflowExecution {
  executionId: string;
}

/** Starts long-running workflows; the result arrives through the workflow's own tasks, not the caller. */
export interface Workflow {
  start(workflow: WorkflowName, input: object, name: string): Promise<WorkflowExecution>;
}
