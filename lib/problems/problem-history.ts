import type { HistoryEventInput, HistoryEventKind } from '#lib/tickets/history.ts';
import type { Problem } from './problem.ts';

type TrackedField = Exclude<keyof Problem, 'id' | 'createdAt' | 'updatedAt'>;

/**
 * What each change of a field is recorded as: status, priority and assignee have their own kinds (spec:
 * Unified ticket and history event); every other field is a FIELD_CHANGE naming the field. The order is
 * the order events are recorded in.
 */
const TRACKED: readonly [TrackedField, HistoryEventKind][] = [
  ['status', 'STATUS_CHANGE'],
  ['priority', 'PRIORITY_CHANGE'],
  ['assignedToEmail', 'ASSIGNED'],
  ['title', 'FIELD_CHANGE'],
  ['description', 'FIELD_CHANGE'],
  ['rootCause', 'FIELD_CHANGE'],
  ['workaround', 'FIELD_CHANGE'],
  ['serviceArea', 'FIELD_CHANGE'],
  ['relatedIncidentIds', 'FIELD_CHANGE'],
];

/** History keeps strings: a list of incident ids becomes `INC-1, INC-2`, an empty one null. */
const asText = (value: Problem[TrackedField]): string | null =>
  Array.isArray(value) ? value.join(', ') || null : value;

const base = (problem: Problem, actor: string) => ({ ticketId: problem.id, ticketType: 'PROBLEM' as const, actor });

/** CREATED (to the initial status), and ASSIGNED when the problem is created with an assignee. */
export const createdEvents = (problem: Problem, actor: string): HistoryEventInput[] => [
  { ...base(problem, actor), event: 'CREATED', from: null, to: problem.status },
  ...(problem.assignedToEmail
    ? [{ ...base(problem, actor), event: 'ASSIGNED' as const, from: null, to: problem.assignedToEmail }]
    : []),
];

/** One event per field whose value differs; a PUT that repeats the current values records nothing. */
export const changeEvents = (before: Problem, after: Problem, actor: string): HistoryEventInput[] =>
  TRACKED.flatMap(([field, event]) => {
    const from = asText(before[field]);
    const to = asText(after[field]);
    if (from === to) return [];
    return [{ ...base(after, actor), event, from, to, ...(event === 'FIELD_CHANGE' && { field }) }];
  });

/** Kept after the problem is gone: the audit trail outlives the record. */
export const deletedEvent = (problem: Problem, actor: string): HistoryEventInput => ({
  ...base(problem, actor),
  event: 'DELETED',
  from: problem.status,
  to: null,
  message: problem.title,
});
