import { nullsFor, pick } from '#lib/contract/view-fields.ts';
import { NotFoundError } from '#lib/contract/errors.ts';
import { recordHistory } from '#lib/tickets/history-repository.ts';
import { isProblemId, type Problem, type ProblemChanges } from './problem.ts';
import { changeEvents, createdEvents, deletedEvent } from './problem-history.ts';
import { problemRepository } from './problem-repository.ts';
import { checkRelatedIncidents } from './related-incidents.ts';
import type { CreateProblemInput, ListProblemsInput, UpdateProblemInput } from './schemas.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { Page } from '#lib/store/pages.ts';

const notFound = (): NotFoundError => new NotFoundError('Problem not found');

/** Creates an OPEN problem, then records CREATED (and ASSIGNED) in the ticket history. */
export const createProblem = async (scope: Scope, input: CreateProblemInput): Promise<Problem> => {
  const { ports, workspaceId, actor } = scope;
  const relatedIncidentIds = await checkRelatedIncidents(scope, input.relatedIncidentIds);
  const now = ports.clock.now().toISOString();
  const problem: Problem = {
    id: ports.ids.sortable(),
    ...pick(input, ['title', 'description', 'priority']),
    ...nullsFor(input, ['rootCause', 'workaround', 'serviceArea', 'assignedToEmail']),
    status: 'OPEN',
    relatedIncidentIds,
    createdAt: now,
    updatedAt: now,
  };
  await problemRepository(ports.table, workspaceId).insertProblem(problem);
  await recordHistory(ports, workspaceId, createdEvents(problem, actor));
  return problem;
};

export const getProblem = async ({ ports: { table }, workspaceId }: Scope, problemId: string): Promise<Problem> => {
  const problem = isProblemId(problemId)
    ? await problemRepository(table, workspaceId).findProblem(problemId)
    : undefined;
  if (!problem) throw notFound();
  return problem;
};

export const listProblems = async (
  { ports: { table }, workspaceId }: Scope,
  { page, limit, cursor, status, priority }: ListProblemsInput,
): Promise<Page<Problem>> =>
  problemRepository(table, workspaceId).queryProblems({ status, priority }, { page, limit, cursor });

/**
 * Changes the given fields (null clears an optional one), then records one history event per field
 * whose value changed. There are no restrictions on status moves (spec: Problem status).
 */
export const updateProblem = async (
  scope: Scope,
  { id: problemId, changes: input }: { id: string; changes: UpdateProblemInput },
): Promise<Problem> => {
  const { ports, workspaceId, actor } = scope;
  if (!isProblemId(problemId)) throw notFound();
  const { relatedIncidentIds, ...fields } = input;
  const changes: ProblemChanges = {
    ...fields,
    ...(relatedIncidentIds && {
      relatedIncidentIds: await checkRelatedIncidents(scope, relatedIncidentIds),
    }),
  };
  const now = ports.clock.now().toISOString();
  const updated = await problemRepository(ports.table, workspaceId).writeProblemChanges(problemId, changes, now);
  if (!updated) throw notFound();
  const events = changeEvents(updated.before, updated.after, actor);
  if (events.length > 0) await recordHistory(ports, workspaceId, events);
  return updated.after;
};

/** Irreversible; the problem's history, DELETED included, stays for audit. */
export const deleteProblem = async ({ ports, workspaceId, actor }: Scope, problemId: string): Promise<void> => {
  const deleted = isProblemId(problemId)
    ? await problemRepository(ports.table, workspaceId).removeProblem(problemId)
    : undefined;
  if (!deleted) throw notFound();
  await recordHistory(ports, workspaceId, [deletedEvent(deleted, actor)]);
};
