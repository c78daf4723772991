import type { EscalationPolicy } from '#lib/escalation-policies/escalation-policy.ts';
import type { IncidentNotification } from '#lib/incidents/notification-message.ts';
import type { Incident } from '#lib/incidents/incident.ts';
import { ESCALATION_EVENTS } from '#lib/incidents/incident-notifications.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { whoIsOnCall } from '#lib/on-call/on-call-service.ts';
import type { Pagee } from './escalation-contact.ts';

/** The policy and member lookups of escalation contacts load with the first escalation or breach alert. */
const escalationContacts = onFirstUse(() => import('./escalation-contact.ts'));
/** Escalation policies (the service map, schedules, rotation math) load with the first page that may follow one. */
const policies = onFirstUse(async () => ({
  ...(await import('#lib/escalation-policies/escalation-policy-repository.ts')),
  ...(await import('#lib/incidents/escalation-plan-of.ts')),
  ...(await import('./level-pagees.ts')),
}));
/** The default schedule (rotation math included) loads with the first default page no assignment covers. */
const defaultSchedule = onFirstUse(() => import('#lib/schedules/on-call-now.ts'));

/** Whom an event pages (the IMS alert address and the chat webhook aside), and who of them is on call. */
export interface PagedPeople {
  people: Pagee[];
  onCall: string[];
}

/**
 * The policy a page follows: the one a level page names (gone since: none), or for the opening page the policy of
 * the incident's service. Other events (priority raised, resolved, breach alerts) page as they always did.
 */
const policyOfPage = async (
  scope: Scope,
  notification: IncidentNotification,
  incident: Incident,
): Promise<EscalationPolicy | undefined> => {
  if (notification.policyId) {
    const { escalationPolicyRepository } = await policies();
    return escalationPolicyRepository(scope.ports.table, scope.workspaceId).getPolicy(notification.policyId);
  }
  if (notification.event !== 'OPENED') return undefined;
  return (await (await policies()).escalationPlanOf(scope, incident)).policy;
};

/**
 * Whom the default escalation pages as on call: the members whose assignments cover the instant, or when none
 * does, whoever the default schedule's layers or overrides put on call then.
 */
const onCallByDefault = async (scope: Scope, at: Date): Promise<Pagee[]> => {
  const assigned = await whoIsOnCall(scope, at);
  if (assigned.length > 0) return assigned;
  const member = await (await defaultSchedule()).defaultScheduleMember(scope, at);
  return member ? [{ email: member.email, userId: member.id }] : [];
};

/**
 * Under an escalation policy (docs/on-call.md): the targets of the levels the page reaches (level 1 for the
 * opening), at the event's instant. Otherwise the members the on-call assignments put on call then, and for an
 * escalation or a breach alert the governing SLA policy's escalation contact (docs/escalation.md).
 */
export const pagedPeople = async (
  scope: Scope,
  notification: IncidentNotification,
  incident: Incident,
): Promise<PagedPeople & { policy?: EscalationPolicy }> => {
  const at = new Date(notification.at);
  const policy = await policyOfPage(scope, notification, incident);
  if (policy)
    return { ...(await (await policies()).levelPagees(scope, policy, notification.levels ?? [1], at)), policy };
  const onCall = await onCallByDefault(scope, at);
  const contact = ESCALATION_EVENTS.includes(notification.event)
    ? await (await escalationContacts()).escalationContactOf(scope, incident)
    : undefined;
  return { people: [...onCall, ...(contact ? [contact] : [])], onCall: onCall.map(({ email }) => email) };
};
