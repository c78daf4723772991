import { ConflictError } from '#lib/contract/errors.ts';
import { afterResolution } from './after-resolution.ts';
import { findIncident } from './get-incident.ts';
import type { Incident } from './incident.ts';
import { recordIncidentChange } from './incident-changes.ts';
import { incidentUpdate } from './incident-item.ts';
import { incidentRepository } from './incident-repository.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { ResolveIncidentInput } from './schemas.ts';

/** Only an incident whose impact is not over yet can be resolved. */
const NOT_DONE = {
  expression: 'NOT (#resolveStatus IN (:resolved, :closed))',
  names: { '#resolveStatus': 'status' },
  values: { ':resolved': 'RESOLVED', ':closed': 'CLOSED' },
};

/**
 * Resolves an incident from any open status: RESOLVED, `resolvedAt`, `resolvedBy` (and `acknowledgedAt`
 * if it was still OPEN), history STATUS_CHANGE and RESOLVED, then the post-resolution hooks. Resolving
 * an incident that is already RESOLVED or CLOSED is a 409 and changes nothing: its resolution time and
 * resolver stay those of the first resolution (reopen it with PUT to resolve it again).
 *
 * `resolution` and `rootCause` are written in the same update; one left out keeps what an earlier
 * resolution of a reopened incident said, so resolving again without a body loses no write-up.
 */
export const resolveIncident = async (
  scope: Scope,
  { id: incidentId, resolution, rootCause }: { id: string } & ResolveIncidentInput,
): Promise<Incident> => {
  const { ports: runtime, workspaceId, actor } = scope;
  const { id } = await findIncident(scope, incidentId);
  const update = incidentUpdate(
    workspaceId,
    id,
    { status: 'RESOLVED' },
    { now: runtime.clock.now().toISOString(), actor },
  );
  if (resolution !== undefined) update.set.resolution = resolution;
  if (rootCause !== undefined) update.set.rootCause = rootCause;
  const written = await incidentRepository(runtime.table, workspaceId).updateIncidentItem(id, update, NOT_DONE);
  if (!written) {
    const current = await findIncident(scope, id);
    throw new ConflictError(`Incident is already ${current.status}`, [`status: ${id} is ${current.status}`]);
  }
  const { before, after } = written;
  await recordIncidentChange(scope, before, after, {
    history: [{ event: 'STATUS_CHANGE', from: before.status, to: after.status }, { event: 'RESOLVED' }],
  });
  await afterResolution(scope, after);
  return after;
};
