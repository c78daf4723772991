import type { Scope } from '#lib/identity/scope.ts';
import { recordHistory } from '#lib/tickets/history-repository.ts';
import type { DuePage, EscalationPlan } from './escalation-plan.ts';
import type { Incident } from './incident.ts';
import { queueIncidentEvents } from './incident-notifications.ts';
import { incidentRepository } from './incident-repository.ts';
import type { NotificationEvent } from './notification-events.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';

/** Loaded by the first sweep that finds an OPEN incident, so the sweep's cold start stays as it was. */
const escalationHolds = onFirstUse(() => import('./escalation-hold.ts'));
const maintenanceWindows = onFirstUse(() => import('#lib/maintenance/maintenance-window-service.ts'));
const plans = onFirstUse(async () => ({
  ...(await import('./escalation-plan.ts')),
  ...(await import('./escalation-plan-of.ts')),
}));
const ackTimeouts = onFirstUse(() => import('./ack-timeout.ts'));

/** What the history says of one page: the default escalation's words as they always were, or the policy's level. */
const historyMessage = (plan: EscalationPlan, page: DuePage, byHand: boolean): string => {
  if (byHand) return `Escalated to level ${page.level} on request`;
  // The page's own instant less its offset gives the start as the sweep counted it (a turned-on autoEscalate moves it).
  const start = Date.parse(page.dueAt) - (plan.pages[page.step - 1]?.offsetMs ?? 0);
  if (!plan.policy) {
    const deadline = new Date(start + (plan.pages[0]?.offsetMs ?? 0)).toISOString();
    return `Escalation ${page.step} of ${plan.pages.length}: not acknowledged since the response deadline ${deadline}`;
  }
  return `Escalated to level ${page.level} of "${plan.policy.name}": not acknowledged since ${new Date(start).toISOString()}`;
};

/**
 * Sends one page of an incident's escalation: a conditional write on the incident (still OPEN, or for a page by
 * hand not resolved; fewer pages sent than this one's number) claims it, so of two sweeps at the same instant one
 * sends it; then its ESCALATION history event and the event for the notification worker, which pages the levels
 * it reaches. Answers the incident as written, or undefined when the page was not claimed.
 */
export const sendEscalationPage = async (
  scope: Scope,
  incident: Incident,
  { plan, page, now, startedAt }: { plan: EscalationPlan; page: DuePage; now: Date; startedAt?: string },
): Promise<Incident | undefined> => {
  const { ports, workspaceId } = scope;
  const claimed = await incidentRepository(ports.table, workspaceId).claimEscalation(incident.id, {
    ...page,
    ...(startedAt && { startedAt }),
  });
  if (!claimed) return undefined;
  const { after } = claimed;
  const event: NotificationEvent = startedAt ? 'ESCALATE_NOW' : 'ESCALATION';
  await recordHistory(
    ports,
    workspaceId,
    [
      {
        ticketId: after.id,
        ticketType: 'INCIDENT',
        event: 'ESCALATION',
        actor: scope.actor,
        to: String(plan.policy ? page.level : page.step),
        message: historyMessage(plan, page, Boolean(startedAt)),
      },
    ],
    now.toISOString(),
  );
  await queueIncidentEvents(scope, [
    {
      workspaceId,
      incidentId: after.id,
      event,
      at: page.dueAt,
      priority: after.priority,
      escalation: page.step,
      ...(plan.policy && { policyId: plan.policy.id, levels: page.levels }),
    },
  ]);
  return after;
};

/**
 * The escalation side of the SLA sweep: in a workspace with `autoEscalate` on or with escalation policies, every
 * incident still OPEN is looked at (one query of the OPEN status partition, one of the open maintenance windows)
 * and the page its plan has due is sent, but for those of a service in maintenance; incidents of no policy are
 * escalated only with `autoEscalate`. Acknowledged incidents past a policy's ack timeout return to OPEN first.
 * Answers how many pages it sent.
 */
export const escalateOverdueIncidents = async (
  scope: Scope,
  now: Date,
  { autoEscalate, since }: { autoEscalate: boolean; since?: string | undefined },
): Promise<number> => {
  const { duePage, planResolver } = await plans();
  const resolver = await planResolver(scope);
  if (!autoEscalate && resolver.policies.length === 0) return 0;
  let sent = 0;
  if (resolver.policies.some((policy) => policy.ackTimeoutMinutes !== undefined)) {
    sent += await (await ackTimeouts()).reopenUnresolved(scope, resolver, now);
  }
  const open = await incidentRepository(scope.ports.table, scope.workspaceId).queryOpenIncidents();
  if (open.length === 0) return sent;
  const [{ noteEscalationHeld, windowHolding }, { openWindows }] = await Promise.all([
    escalationHolds(),
    maintenanceWindows(),
  ]);
  const windows = await openWindows(scope, now);
  for (const incident of open) {
    const plan = resolver.planOf(incident);
    if (!plan.policy && !autoEscalate) continue;
    // Turning `autoEscalate` on starts the default escalation of older incidents then, not at their creation.
    const page = duePage(incident, plan, now, plan.policy ? undefined : since);
    if (!page) continue;
    // An incident of a service in maintenance is held: its due page waits for the window's end.
    const held = windowHolding(windows, incident);
    if (held) await noteEscalationHeld(scope, incident, held);
    else if (await sendEscalationPage(scope, incident, { plan, page, now })) sent += 1;
  }
  return sent;
};
