import { NotFoundError } from '#lib/contract/errors.ts';
import { afterResolution } from './after-resolution.ts';
import { findIncident } from './get-incident.ts';
import type { Incident } from './incident.ts';
import { recordIncidentChange } from './incident-changes.ts';
import { incidentUpdate } from './incident-item.ts';
import { type IncidentCondition, incidentRepository } from './incident-repository.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { ResolveIncidentInput } from './schemas.ts';

const WRITE_UP_FIELDS = ['resolution', 'rootCause'] as const;

/** The given `resolution` and `rootCause` that differ from the incident's; one left out is no change. */
const writeUpChanges = (incident: Incident, input: ResolveIncidentInput): ResolveIncidentInput =>
  Object.fromEntries(
    WRITE_UP_FIELDS.filter((field) => input[field] !== undefined && input[field] !== incident[field]).map((field) => [
      field,
      input[field],
    ]),
  );

/** The automatic resolve's condition: an incident a person resolved or closed meanwhile is left alone. */
const STILL_OPEN: IncidentCondition = { field: 'status', notIn: ['RESOLVED', 'CLOSED'] };

/**
 * Writes RESOLVED with the write-up, unless `condition` refuses (or the incident is gone): undefined. A
 * status change gets its events (history STATUS_CHANGE and RESOLVED, counters, SLA, notifications) and the
 * post-resolution hooks; whether the status changed is read from the item the write replaced, so an incident
 * reopened or resolved by someone else meanwhile gets its events once. A change of the write-up alone
 * (the incident was RESOLVED already) is followed by nothing.
 */
const writeResolution = async (
  scope: Scope,
  incidentId: string,
  writeUp: ResolveIncidentInput,
  condition?: IncidentCondition,
): Promise<Incident | undefined> => {
  const { ports, workspaceId, actor } = scope;
  const update = incidentUpdate(
    workspaceId,
    incidentId,
    { status: 'RESOLVED' },
    { now: ports.clock.now().toISOString(), actor },
  );
  Object.assign(update.set, writeUp);
  const written = await incidentRepository(ports.table, workspaceId).updateIncidentItem(incidentId, update, condition);
  if (!written) return undefined;
  const { before, after } = written;
  if (before.status === 'RESOLVED') return after;
  await recordIncidentChange(scope, before, after, {
    history: [{ event: 'STATUS_CHANGE', from: before.status, to: after.status }, { event: 'RESOLVED' }],
  });
  await afterResolution(scope, after);
  return after;
};

/**
 * Resolves an incident from any status (the spec's "any | POST resolve"). From any other status, CLOSED
 * included, it is a status change: RESOLVED, `resolvedAt`/`resolvedBy` set unless the incident has them
 * (a CLOSED one keeps those of its closing), `acknowledgedAt` if it was still OPEN, and its events. An
 * incident already RESOLVED stays so with no event: only a `resolution` or `rootCause` that differs is
 * written, and a request that changes nothing writes nothing (same `updatedAt`).
 *
 * `resolution` and `rootCause` are written in the same update; one left out keeps what an earlier
 * resolution said, so resolving again without a body loses no write-up.
 */
export const resolveIncident = async (
  scope: Scope,
  { id: incidentId, ...input }: { id: string } & ResolveIncidentInput,
): Promise<Incident> => {
  const current = await findIncident(scope, incidentId);
  const writeUp = writeUpChanges(current, input);
  if (current.status === 'RESOLVED' && Object.keys(writeUp).length === 0) return current;
  const resolved = await writeResolution(scope, current.id, writeUp);
  if (!resolved) throw new NotFoundError('Incident not found', [`id: incident ${incidentId} was deleted`]);
  return resolved;
};

/**
 * The automatic resolve (a correlation rule's `autoResolve`): only an incident neither RESOLVED nor CLOSED,
 * checked in the write itself, so a person's resolution or closing is never overwritten; undefined otherwise.
 */
export const resolveOpenIncident = (
  scope: Scope,
  incidentId: string,
  resolution: string,
): Promise<Incident | undefined> => writeResolution(scope, incidentId, { resolution }, STILL_OPEN);
