import type { PlaybookStep } from './playbook.ts';

export const EXECUTION_STATUSES = ['IN_PROGRESS', 'COMPLETED', 'CANCELLED'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

export const STEP_STATUSES = ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'SKIPPED'] as const;
type StepStatus = (typeof STEP_STATUSES)[number];

/** A step of an execution: the version's step as it was when the execution started, and its progress. */
export interface ExecutionStep extends PlaybookStep {
  index: number;
  status: StepStatus;
  note: string | null;
  reason: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  finishedBy: string | null;
}

/** Something done that the playbook did not list, recorded while step `stepIndex` was the current one. */
interface AdHocAction {
  description: string;
  stepIndex: number;
  recordedBy: string;
  recordedAt: string;
}

/** Its steps are a copy of the version it ran, so later edits of the playbook never change it. */
export interface Execution {
  executionId: string;
  playbookId: string;
  playbookTitle: string;
  playbookVersion: number;
  incidentId: string | null;
  assignedToEmail: string | null;
  status: ExecutionStatus;
  currentStepIndex: number;
  steps: ExecutionStep[];
  actions: AdHocAction[];
  startedBy: string;
  startedAt: string;
  completedAt: string | null;
  cancelledAt: string | null;
  cancelReason: string | null;
  updatedAt: string;
}

/**
 * Ad-hoc actions compare by this form: lower case, punctuation dropped, spaces collapsed, so "Restart
 * the pod." and "restart  the pod" are one action in suggestions and patterns.
 */
export const normalizeAction = (description: string): string =>
  description
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .slice(0, 200);
