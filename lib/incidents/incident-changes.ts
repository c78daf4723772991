import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { recordHistory } from '#lib/tickets/history-repository.ts';
import type { HistoryEventInput, HistoryEventKind } from '#lib/tickets/history.ts';
import { INCIDENT_EDITABLE_FIELDS, type Incident, type IncidentEditableField } from './incident.ts';
import { countListWrite } from '#lib/store/list-counters.ts';
import { INCIDENT_COUNTER } from './incident-counter.ts';
import { addToIncidentRollups } from './incident-rollup.ts';
import { queueNotifications } from './incident-notifications.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { Ports } from '#lib/ports/ports.ts';
import { recordMessages, type MessageInput } from './message-repository.ts';

export type IncidentHistoryInput = Omit<HistoryEventInput, 'ticketId' | 'ticketType' | 'actor'>;

const EVENT_BY_FIELD: Partial<Record<IncidentEditableField, HistoryEventKind>> = {
  status: 'STATUS_CHANGE',
  priority: 'PRIORITY_CHANGE',
  assignedToEmail: 'ASSIGNED',
};

const fieldValue = (incident: Incident, field: IncidentEditableField): string | null => incident[field] ?? null;

const changedFields = (before: Incident, after: Incident): IncidentEditableField[] =>
  INCIDENT_EDITABLE_FIELDS.filter((field) => fieldValue(before, field) !== fieldValue(after, field));

/** One history event per changed field: the spec's kinds for status, priority and assignee, FIELD_CHANGE for the rest. */
export const historyOfUpdate = (before: Incident, after: Incident): IncidentHistoryInput[] =>
  changedFields(before, after).map((field): IncidentHistoryInput => {
    const event = EVENT_BY_FIELD[field];
    const change = { from: fieldValue(before, field), to: fieldValue(after, field) };
    return event ? { event, ...change } : { event: 'FIELD_CHANGE', field, ...change };
  });

const assignmentText = (from: string | null, to: string | null, actor: string): string => {
  if (!from) return `Assigned to ${to} by ${actor}`;
  if (!to) return `Unassigned from ${from} by ${actor}`;
  return `Reassigned from ${from} to ${to} by ${actor}`;
};

/** The thread messages of an update: status, assignment and priority changes, which people follow. */
export const messagesOfUpdate = (before: Incident, after: Incident, actor: string): MessageInput[] =>
  changedFields(before, after).flatMap((field): MessageInput[] => {
    const from = fieldValue(before, field);
    const to = fieldValue(after, field);
    switch (field) {
      case 'status':
        return [{ kind: 'STATUS_CHANGE', text: `Status changed from ${from} to ${to} by ${actor}`, actor }];
      case 'priority':
        return [{ kind: 'PRIORITY_CHANGE', text: `Priority changed from ${from} to ${to} by ${actor}`, actor }];
      case 'assignedToEmail':
        return [{ kind: 'ASSIGNMENT', text: assignmentText(from, to, actor), actor }];
      default:
        return [];
    }
  });

/**
 * The business metrics of a write: an incident opened (by a person or by correlation), an incident
 * resolved (it gained `resolvedAt`: RESOLVED or CLOSED from an open status, or created so). Both states
 * come from the write itself, so a 409 or a no-op update counts nothing.
 */
const countChange = ({ metrics }: Ports, before: Incident | undefined, after: Incident | undefined): void => {
  if (!after) return;
  if (!before) metrics.count('IncidentsOpened');
  if (after.resolvedAt && !before?.resolvedAt) metrics.count('IncidentsResolved');
};

const incidentSla = onFirstUse(() => import('./incident-sla.ts'));

/**
 * The SLA side of a write: for the incidents a policy governs, and for a change of the fields that choose
 * the policy. Its module (policies, deadlines, the IMS configuration) is a chunk loaded by the first such
 * write, not part of every cold start.
 */
const recordSla = async (scope: Scope, before: Incident | undefined, after: Incident | undefined): Promise<void> => {
  const choosing = before && after && (before.priority !== after.priority || before.serviceArea !== after.serviceArea);
  if (!choosing && !(after ?? before)?.slaPolicyId) return;
  const { recordSlaChange } = await incidentSla();
  await recordSlaChange(scope, before, after);
};

/**
 * Everything that follows an incident write: its history events, its thread messages, the analytics
 * counter, the dashboard's hourly rollups, the SLA outcomes, the business metrics and the notifications it
 * calls for (queued, sent by the notification worker). They are issued together after the incident itself
 * was written; a crash in between can lose an event or make the counter drift, never the change itself
 * (docs/data-model.md 7).
 */
export const recordIncidentChange = async (
  scope: Scope,
  before: Incident | undefined,
  after: Incident | undefined,
  { history, messages = [] }: { history: readonly IncidentHistoryInput[]; messages?: readonly MessageInput[] },
): Promise<void> => {
  const { ports, workspaceId, actor } = scope;
  const ticketId = (after ?? before)?.id;
  if (!ticketId) throw new Error('an incident change needs a state before or after it');
  countChange(ports, before, after);
  await Promise.all([
    history.length > 0 &&
      recordHistory(
        ports,
        workspaceId,
        history.map((event) => ({ ...event, ticketId, ticketType: 'INCIDENT', actor })),
        after?.updatedAt,
      ),
    messages.length > 0 && recordMessages(ports, workspaceId, ticketId, messages),
    countListWrite(ports.table, workspaceId, INCIDENT_COUNTER, before, after),
    addToIncidentRollups(scope, { before, after }),
    recordSla(scope, before, after),
    queueNotifications(scope, { before, after }),
  ]);
};
