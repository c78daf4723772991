import type { Scope } from '#lib/identity/scope.ts';
import { recordHistory } from '#lib/tickets/history-repository.ts';
import type { Incident } from './incident.ts';
import { queueIncidentEvents } from './incident-notifications.ts';
import { incidentRepository } from './incident-repository.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';

/** Loaded by the first sweep that finds an OPEN incident, so the sweep's cold start stays as it was. */
const escalationHolds = onFirstUse(() => import('./escalation-hold.ts'));
const maintenanceWindows = onFirstUse(() => import('#lib/maintenance/maintenance-window-service.ts'));

/** The response deadline of an incident no SLA policy governs (docs/escalation.md). */
export const DEFAULT_RESPONSE_MINUTES = 15;
/** Escalations of one incident at most: past them the team has been told three times, loudly enough. */
export const MAX_ESCALATIONS = 3;
/** The longest wait between two escalations, whatever the response target. */
export const MAX_REPEAT_MINUTES = 30;

const MINUTE = 60_000;

/** One escalation that is due: its number and the instant it fell due (which names it in the deliveries). */
export interface DueEscalation {
  step: number;
  dueAt: string;
  responseDueAt: string;
}

/**
 * The escalation an OPEN incident is due at `now`, if any. The first falls due when the response deadline
 * passes (the governing policy's, else `createdAt` + 15 minutes); the next ones each response time later (the
 * policy's `responseTimeMinutes`, at most 30 minutes), up to three. A sweep that was late sends only the
 * latest one due, not the ones it missed; one already sent (`escalationCount`) is not due again. An incident
 * opened before `autoEscalate` was turned on (`escalatingSince`) gets its whole response time from that moment:
 * turning escalation on escalates from then on, never at once for the deadlines that passed before.
 */
export const dueEscalation = (incident: Incident, now: Date, escalatingSince?: string): DueEscalation | undefined => {
  if (incident.status !== 'OPEN') return undefined;
  const created = Date.parse(incident.createdAt);
  const opened = incident.slaResponseDueAt
    ? Date.parse(incident.slaResponseDueAt)
    : created + DEFAULT_RESPONSE_MINUTES * MINUTE;
  const deadline = opened + Math.max(0, (escalatingSince ? Date.parse(escalatingSince) : created) - created);
  const overdue = now.getTime() - deadline;
  if (overdue <= 0) return undefined;
  const repeat = Math.min(Math.max(deadline - created, MINUTE), MAX_REPEAT_MINUTES * MINUTE);
  const step = Math.min(MAX_ESCALATIONS, Math.ceil(overdue / repeat));
  if (step <= (incident.escalationCount ?? 0)) return undefined;
  return {
    step,
    dueAt: new Date(deadline + (step - 1) * repeat).toISOString(),
    responseDueAt: new Date(deadline).toISOString(),
  };
};

/**
 * Escalates one incident if an escalation is due: a conditional write on the incident (still OPEN, fewer
 * escalations sent than this one's number) claims it, so of two sweeps at the same instant one sends it;
 * then its history event and the UNACKNOWLEDGED event for the notification worker. Answers whether it did.
 */
const escalate = async (scope: Scope, incident: Incident, now: Date, since?: string): Promise<boolean> => {
  const due = dueEscalation(incident, now, since);
  if (!due) return false;
  const { ports, workspaceId } = scope;
  const claimed = await incidentRepository(ports.table, workspaceId).claimEscalation(incident.id, due);
  if (!claimed) return false;
  const { after } = claimed;
  await recordHistory(
    ports,
    workspaceId,
    [
      {
        ticketId: after.id,
        ticketType: 'INCIDENT',
        event: 'ESCALATION',
        actor: scope.actor,
        to: String(due.step),
        message: `Escalation ${due.step} of ${MAX_ESCALATIONS}: not acknowledged since the response deadline ${due.responseDueAt}`,
      },
    ],
    now.toISOString(),
  );
  await queueIncidentEvents(scope, [
    {
      workspaceId,
      incidentId: after.id,
      event: 'UNACKNOWLEDGED',
      at: due.dueAt,
      priority: after.priority,
      escalation: due.step,
    },
  ]);
  return true;
};

/**
 * The escalation side of the SLA sweep, for a workspace with `autoEscalate` on: every incident still OPEN is
 * looked at (one query of the OPEN status partition, and one of the open maintenance windows) and those past
 * their deadline are escalated, but those of a service in maintenance. Answers how many escalations it sent.
 */
export const escalateOverdueIncidents = async (scope: Scope, now: Date, since?: string): Promise<number> => {
  const open = await incidentRepository(scope.ports.table, scope.workspaceId).queryOpenIncidents();
  if (open.length === 0) return 0;
  const [{ noteEscalationHeld, windowHolding }, { openWindows }] = await Promise.all([
    escalationHolds(),
    maintenanceWindows(),
  ]);
  const windows = await openWindows(scope, now);
  let sent = 0;
  for (const incident of open) {
    // An incident of a service in maintenance is held: its due escalation waits for the window's end.
    const held = windowHolding(windows, incident);
    if (held) {
      if (dueEscalation(incident, now, since)) await noteEscalationHeld(scope, incident, held);
    } else if (await escalate(scope, incident, now, since)) sent += 1;
  }
  return sent;
};
