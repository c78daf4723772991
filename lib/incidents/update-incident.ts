import { resolveOpenSignals } from './after-resolution.ts';
import { assertAssignable } from './assignee.ts';
import { NotFoundError } from '#lib/contract/errors.ts';
import { INCIDENT_EDITABLE_FIELDS, type Incident, type IncidentChanges, isDone } from './incident.ts';
import { historyOfUpdate, messagesOfUpdate, recordIncidentChange } from './incident-changes.ts';
import { incidentUpdate } from './incident-item.ts';
import { incidentRepository } from './incident-repository.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { findIncident } from './get-incident.ts';
import type { UpdateIncidentInput } from './schemas.ts';

/** The given fields whose value differs from the incident's; `null` stands for "not set". */
const differences = (incident: Incident, input: UpdateIncidentInput): IncidentChanges =>
  Object.fromEntries(
    INCIDENT_EDITABLE_FIELDS.filter(
      (field) => input[field] !== undefined && input[field] !== (incident[field] ?? null),
    ).map((field) => [field, input[field]]),
  );

/**
 * Changes the given fields (PUT with partial semantics). Any status may follow any other, as the spec
 * shows no order; the status timestamps follow the rules of `incidentUpdate`. Values equal to the
 * current ones change nothing: no write, no history, `updatedAt` kept. Each changed field gets a history
 * event; status, priority and assignee changes also a thread message. Moved to RESOLVED or CLOSED, its
 * open signals are resolved as `POST /resolve/:id` resolves them.
 */
export const updateIncident = async (
  scope: Scope,
  { id: incidentId, changes: input }: { id: string; changes: UpdateIncidentInput },
): Promise<Incident> => {
  const { ports, workspaceId, actor } = scope;
  const current = await findIncident(scope, incidentId);
  const changes = differences(current, input);
  if (Object.keys(changes).length === 0) return current;
  await assertAssignable(scope, changes.assignedToEmail);
  const written = await incidentRepository(ports.table, workspaceId).updateIncidentItem(
    current.id,
    incidentUpdate(workspaceId, current.id, changes, { now: ports.clock.now().toISOString(), actor }),
  );
  if (!written) throw new NotFoundError('Incident not found', [`id: incident ${incidentId} was deleted`]);
  const { before, after } = written;
  await recordIncidentChange(scope, before, after, {
    history: historyOfUpdate(before, after),
    messages: messagesOfUpdate(before, after, actor),
  });
  // Ended here rather than by `POST /resolve/:id`: its signals end with it all the same.
  if (isDone(after.status) && !isDone(before.status)) await resolveOpenSignals(scope, after);
  return after;
};
