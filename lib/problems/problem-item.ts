import { workspaceKey } from '#lib/store/keys.ts';
import { ticketIndexKeys } from '#lib/tickets/ticket-index.ts';
import { OPTIONAL_PROBLEM_FIELDS, type Problem, type ProblemPriority, type ProblemStatus } from './problem.ts';

/** PROBLEM items (docs/data-model.md 5.5): base `{W}#PROBLEM`, gsi1 by status, gsi2 by priority, gsi3 tickets. */
export const problemPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'PROBLEM');

export const problemStatusPartition = (workspaceId: string, status: ProblemStatus): string =>
  workspaceKey(workspaceId, 'PROBLEM', 'STATUS', status);

export const problemPriorityPartition = (workspaceId: string, priority: ProblemPriority): string =>
  workspaceKey(workspaceId, 'PROBLEM', 'PRIORITY', priority);

export const problemItemKey = (workspaceId: string, problemId: string) => ({
  pk: problemPartition(workspaceId),
  sk: problemId,
});

/** The gsi1 attributes for a status; an update that changes the status SETs them too. */
export const problemStatusKeys = (workspaceId: string, problem: Pick<Problem, 'id' | 'status'>) => ({
  gsi1pk: problemStatusPartition(workspaceId, problem.status),
  gsi1sk: problem.id,
});

/** The gsi2 attributes for a priority; an update that changes the priority SETs them too. */
export const problemPriorityKeys = (workspaceId: string, problem: Pick<Problem, 'id' | 'priority'>) => ({
  gsi2pk: problemPriorityPartition(workspaceId, problem.priority),
  gsi2sk: problem.id,
});

export const problemIndexKeys = (workspaceId: string, problem: Problem) => ({
  ...problemStatusKeys(workspaceId, problem),
  ...problemPriorityKeys(workspaceId, problem),
  ...ticketIndexKeys(workspaceId, problem),
});

/** Item `type` PROBLEM is also the unified ticket type; unset optional fields are left out of the item. */
export const problemToItem = (workspaceId: string, problem: Problem): Record<string, unknown> => {
  const item: Record<string, unknown> = {
    ...problemItemKey(workspaceId, problem.id),
    ...problemIndexKeys(workspaceId, problem),
    type: 'PROBLEM',
    workspaceId,
    ...problem,
  };
  for (const field of OPTIONAL_PROBLEM_FIELDS) if (item[field] === null) delete item[field];
  return item;
};

const optionalText = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export const problemFromItem = (item: Record<string, unknown>, workspaceId: string): Problem => {
  if (item.workspaceId !== workspaceId) throw new Error(`problem ${String(item.id)} read outside its workspace`);
  return {
    id: item.id as string,
    title: item.title as string,
    description: item.description as string,
    rootCause: optionalText(item.rootCause),
    workaround: optionalText(item.workaround),
    serviceArea: optionalText(item.serviceArea),
    priority: item.priority as ProblemPriority,
    status: item.status as ProblemStatus,
    relatedIncidentIds: (item.relatedIncidentIds as string[] | undefined) ?? [],
    assignedToEmail: optionalText(item.assignedToEmail),
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
};
