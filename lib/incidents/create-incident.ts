import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { assertAssignable } from './assignee.ts';
import { isAcknowledged, isDone, type Incident } from './incident.ts';
import { recordIncidentChange } from './incident-changes.ts';
import { incidentIdRepository } from './incident-id-repository.ts';
import { incidentRepository } from './incident-repository.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { CreateIncidentInput } from './schemas.ts';

/**
 * Creates an incident under a freshly allocated id (`/generate-id` only previews it: the number is taken
 * here, at creation). An incident created past OPEN is stamped as acknowledged, and one created RESOLVED
 * or CLOSED as resolved, at its creation time, so its time to acknowledge or resolve is zero.
 * The assignee must be a member of the workspace; the SLA policy governing it, if any, sets its deadlines
 * (docs/sla-policies.md). Then: the CREATED history event, the "created" thread message and the counters.
 */
/** A chunk of its own, loaded by the first create: cold starts of every other route stay without it. */
const incidentSla = onFirstUse(() => import('./incident-sla.ts'));

export const createIncident = async (scope: Scope, input: CreateIncidentInput): Promise<Incident> => {
  const { ports, workspaceId, actor } = scope;
  await assertAssignable(scope, input.assignedToEmail);
  const now = ports.clock.now();
  const at = now.toISOString();
  const id = await incidentIdRepository(ports.table, workspaceId).allocateIncidentId(now);
  const { slaOfNewIncident } = await incidentSla();
  const sla = await slaOfNewIncident(scope, {
    priority: input.priority,
    serviceArea: input.serviceArea,
    createdAt: now,
  });
  const fields = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  const incident: Incident = {
    ...fields,
    id,
    ticketId: id,
    businessId: workspaceId,
    summary: input.summary,
    priority: input.priority,
    status: input.status,
    createdAt: at,
    updatedAt: at,
    createdBy: actor,
    ...(isAcknowledged(input.status) && { acknowledgedAt: at, acknowledgedBy: actor }),
    ...(isDone(input.status) && { resolvedAt: at, resolvedBy: actor }),
    ...sla,
  };
  await incidentRepository(ports.table, workspaceId).putIncident(incident);
  await recordIncidentChange(scope, undefined, incident, {
    history: [{ event: 'CREATED', to: incident.status }],
    messages: [{ kind: 'SYSTEM', text: `Incident created by ${actor}`, actor }],
  });
  return incident;
};
