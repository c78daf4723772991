import { ConflictError, NotFoundError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { Page } from '#lib/store/pages.ts';
import type { Execution, ExecutionStep } from './execution.ts';
import { type ExecutionRecord, executionRepository } from './execution-repository.ts';
import { linkedIncidentId, noteExecutionOnIncident } from './incident-note.ts';
import { isSortableId } from './playbook.ts';
import { playbookRepository } from './playbook-repository.ts';
import { type ExecuteInput, type ListExecutionsInput, MAX_ACTIONS } from './schemas.ts';

const notFound = (): NotFoundError => new NotFoundError('Execution not found');

/** Read-modify-write of an execution (docs/data-model.md 2): re-read and retry on a conflict, then 409. */
const ATTEMPTS = 3;

/**
 * Starts the published version: its steps are copied into the execution, the first one IN_PROGRESS. A
 * DRAFT is a 409, whether never published or a new version of a published one, until it is published
 * (again); executions started before keep the version they run.
 */
export const executePlaybook = async (
  scope: Scope,
  { id, input }: { id: string; input: ExecuteInput },
): Promise<Execution> => {
  const { ports, workspaceId } = scope;
  const playbooks = playbookRepository(ports.table, workspaceId);
  const head = isSortableId(id) ? await playbooks.findHead(id) : undefined;
  if (!head) throw new NotFoundError('Playbook not found');
  const { status, publishedVersion } = head.playbook;
  if (status !== 'PUBLISHED' || publishedVersion === null)
    throw new ConflictError('Only a published playbook can be executed');
  const [version, incidentId] = await Promise.all([
    playbooks.findVersion(id, publishedVersion),
    input.incidentId ? linkedIncidentId(scope, input.incidentId) : null,
  ]);
  if (!version) throw new ConflictError('The published version is still being written; try again');
  const now = ports.clock.now().toISOString();
  const execution: Execution = {
    executionId: ports.ids.sortable(),
    playbookId: id,
    playbookTitle: version.title,
    playbookVersion: version.version,
    incidentId,
    assignedToEmail: input.assignedToEmail ?? null,
    status: 'IN_PROGRESS',
    currentStepIndex: 0,
    steps: version.steps.map(
      (step, index): ExecutionStep => ({
        ...step,
        index,
        status: index === 0 ? 'IN_PROGRESS' : 'PENDING',
        note: null,
        reason: null,
        startedAt: index === 0 ? now : null,
        finishedAt: null,
        finishedBy: null,
      }),
    ),
    actions: [],
    startedBy: scope.actor,
    startedAt: now,
    completedAt: null,
    cancelledAt: null,
    cancelReason: null,
    updatedAt: now,
  };
  await executionRepository(ports.table, workspaceId).insertExecution(execution);
  if (incidentId) await noteExecutionOnIncident(scope, incidentId, execution);
  return execution;
};

export const findExecution = async ({ ports, workspaceId }: Scope, executionId: string): Promise<ExecutionRecord> => {
  const found = isSortableId(executionId)
    ? await executionRepository(ports.table, workspaceId).findExecution(executionId)
    : undefined;
  if (!found) throw notFound();
  return found;
};

export const getExecution = async (scope: Scope, executionId: string): Promise<Execution> =>
  (await findExecution(scope, executionId)).execution;

export const listExecutions = (
  { ports, workspaceId }: Scope,
  { page, limit, cursor, ...filters }: ListExecutionsInput,
): Promise<Page<Execution>> =>
  executionRepository(ports.table, workspaceId).queryExecutions(filters, { page, limit, cursor });

/**
 * Applies `change` to the execution as last read; `change` throws the 409 a finished execution or a
 * step out of turn deserves. A concurrent write makes it read again, so of two completions of one
 * step exactly one is written and the other finds the step done.
 */
const changeExecution = async (
  scope: Scope,
  executionId: string,
  change: (execution: Execution, now: string) => Execution,
): Promise<Execution> => {
  const executions = executionRepository(scope.ports.table, scope.workspaceId);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const record = await findExecution(scope, executionId);
    if (record.execution.status !== 'IN_PROGRESS') {
      throw new ConflictError(`The execution is ${record.execution.status}`);
    }
    const now = scope.ports.clock.now().toISOString();
    const after = { ...change(record.execution, now), updatedAt: now };
    if (await executions.replaceExecution(record, after)) return after;
  }
  throw new ConflictError('The execution changed while it was being written; try again');
};

/** Ends the current step as COMPLETED or SKIPPED and starts the next; after the last, the execution is COMPLETED. */
const finishStep = (
  execution: Execution,
  index: number,
  outcome: Pick<ExecutionStep, 'status' | 'note' | 'reason'>,
  actor: string,
  now: string,
): Execution => {
  if (index >= execution.steps.length) {
    throw new NotFoundError('Step not found', [`index: the execution has steps 0 to ${execution.steps.length - 1}`]);
  }
  if (index !== execution.currentStepIndex) {
    throw new ConflictError(`Step ${index} is not the current step; step ${execution.currentStepIndex} is`);
  }
  const next = index + 1;
  const last = next === execution.steps.length;
  const steps = execution.steps.map((step): ExecutionStep => {
    if (step.index === index) return { ...step, ...outcome, finishedAt: now, finishedBy: actor };
    if (step.index === next) return { ...step, status: 'IN_PROGRESS', startedAt: now };
    return step;
  });
  return {
    ...execution,
    steps,
    ...(last ? { status: 'COMPLETED', completedAt: now } : { currentStepIndex: next }),
  };
};

export const completeStep = (
  scope: Scope,
  { executionId, index, note }: { executionId: string; index: number; note?: string | null },
): Promise<Execution> =>
  changeExecution(scope, executionId, (execution, now) =>
    finishStep(execution, index, { status: 'COMPLETED', note: note ?? null, reason: null }, scope.actor, now),
  );

/** Only an optional step may be skipped; a required one is a 409 and stays current. */
export const skipStep = (
  scope: Scope,
  { executionId, index, reason }: { executionId: string; index: number; reason?: string | null },
): Promise<Execution> =>
  changeExecution(scope, executionId, (execution, now) => {
    const step = execution.steps[index];
    if (step && index === execution.currentStepIndex && !step.optional) {
      throw new ConflictError(`Step ${index} is required and cannot be skipped`);
    }
    return finishStep(execution, index, { status: 'SKIPPED', note: null, reason: reason ?? null }, scope.actor, now);
  });

/** Something done beyond the playbook, tied to the step that was current when it was recorded. */
export const recordAction = (
  scope: Scope,
  { executionId, description }: { executionId: string; description: string },
): Promise<Execution> =>
  changeExecution(scope, executionId, (execution, now) => {
    if (execution.actions.length >= MAX_ACTIONS) {
      throw new ConflictError(`An execution holds at most ${MAX_ACTIONS} ad-hoc actions`);
    }
    const action = { description, stepIndex: execution.currentStepIndex, recordedBy: scope.actor, recordedAt: now };
    return { ...execution, actions: [...execution.actions, action] };
  });

export const cancelExecution = (
  scope: Scope,
  { executionId, reason }: { executionId: string; reason?: string | null },
): Promise<Execution> =>
  changeExecution(scope, executionId, (execution, now) => ({
    ...execution,
    status: 'CANCELLED',
    cancelledAt: now,
    cancelReason: reason ?? null,
  }));
