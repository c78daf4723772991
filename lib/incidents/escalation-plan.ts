import type { EscalationPolicy } from '#lib/escalation-policies/escalation-policy.ts';
import type { Incident } from './incident.ts';

/**
 * When each level of an incident is paged (docs/on-call.md, "Paging by level"), for an escalation policy and for
 * the workspace's default escalation alike: a plan is the list of pages after the opening one, each at an offset
 * from the start of the incident's escalation (its creation, a return to OPEN, or moved by an escalate-now), and
 * the incident's `escalationCount` says how many of them went out. Pure, so the scenarios test it without a store.
 */

/** The response deadline of an incident no SLA policy governs (docs/escalation.md). */
export const DEFAULT_RESPONSE_MINUTES = 15;
/** Escalations of the default plan at most: past them the team has been told three times, loudly enough. */
export const MAX_ESCALATIONS = 3;
/** The longest wait between two escalations of the default plan, whatever the response target. */
export const MAX_REPEAT_MINUTES = 30;

const MINUTE = 60_000;

/** One page of a plan: how long after the escalation's start it falls due, and the level it reaches. */
export interface PlannedPage {
  offsetMs: number;
  level: number;
}

/** The plan an incident escalates by: a policy's levels, or the default escalation (no `policy`). */
export interface EscalationPlan {
  policy?: EscalationPolicy;
  pages: PlannedPage[];
}

/**
 * A policy's pages after the opening one (which pages level 1): the next levels of the first pass, each
 * `delayMinutes` after the one before, then `repeat` more passes from level 1, whose own `delayMinutes` is the
 * wait after the last level (at least a minute, so a pass never pages two levels at one instant).
 */
export const policyPlan = (policy: EscalationPolicy): EscalationPlan => {
  const pages: PlannedPage[] = [];
  let offsetMs = 0;
  for (let pass = 0; pass <= policy.repeat; pass += 1) {
    policy.levels.forEach((level, index) => {
      if (pass === 0 && index === 0) return;
      offsetMs += (index === 0 ? Math.max(level.delayMinutes, 1) : level.delayMinutes) * MINUTE;
      pages.push({ offsetMs, level: index + 1 });
    });
  }
  return { policy, pages };
};

/**
 * The default escalation (what `autoEscalate` and the SLA policy's `escalationContact` describe): levels 2, 3
 * and 4 are escalations 1, 2 and 3. The first falls due when the response deadline passes (the governing SLA
 * policy's, else creation + 15 minutes); the next ones each response time later, at most 30 minutes apart.
 */
export const defaultPlan = (incident: Pick<Incident, 'createdAt' | 'slaResponseDueAt'>): EscalationPlan => {
  const created = Date.parse(incident.createdAt);
  const deadline = incident.slaResponseDueAt
    ? Date.parse(incident.slaResponseDueAt)
    : created + DEFAULT_RESPONSE_MINUTES * MINUTE;
  const repeat = Math.min(Math.max(deadline - created, MINUTE), MAX_REPEAT_MINUTES * MINUTE);
  return {
    pages: Array.from({ length: MAX_ESCALATIONS }, (_, index) => ({
      offsetMs: deadline - created + index * repeat,
      level: index + 2,
    })),
  };
};

/** One page that is due: its number in the plan, the levels it reaches, and the instant it fell due. */
export interface DuePage {
  step: number;
  /** The level it brings the incident to. */
  level: number;
  /** Every level from the one after the last page sent up to `level` (more than one when a sweep was late). */
  levels: number[];
  dueAt: string;
}

/**
 * When an incident's escalation started: a return to OPEN or an escalate-now moves it (`escalationStartedAt`);
 * else its creation, or `escalatingSince` for an incident opened before escalation was turned on, which then
 * gets its whole response time from that moment rather than every page at once.
 */
const startOf = (incident: Pick<Incident, 'createdAt' | 'escalationStartedAt'>, escalatingSince?: string): number =>
  incident.escalationStartedAt
    ? Date.parse(incident.escalationStartedAt)
    : Math.max(Date.parse(incident.createdAt), escalatingSince ? Date.parse(escalatingSince) : 0);

const pageAt = (plan: EscalationPlan, sent: number, step: number, dueAt: number): DuePage => {
  const levels = [...new Set(plan.pages.slice(sent, step).map((page) => page.level))];
  return { step, level: plan.pages[step - 1]?.level ?? 1, levels, dueAt: new Date(dueAt).toISOString() };
};

/**
 * The page an OPEN incident is due at `now` by its plan, if any: the latest one whose instant has passed (strictly:
 * a response at the deadline exactly meets it), unless it was sent already (`escalationCount`). A sweep that was
 * late sends the latest page due, reaching the levels it skipped as well.
 */
export const duePage = (
  incident: Pick<Incident, 'status' | 'createdAt' | 'escalationStartedAt' | 'escalationCount'>,
  plan: EscalationPlan,
  now: Date,
  escalatingSince?: string,
): DuePage | undefined => {
  if (incident.status !== 'OPEN') return undefined;
  const start = startOf(incident, escalatingSince);
  const sent = incident.escalationCount ?? 0;
  for (let step = plan.pages.length; step > sent; step -= 1) {
    const due = start + (plan.pages[step - 1] as PlannedPage).offsetMs;
    if (due < now.getTime()) return pageAt(plan, sent, step, due);
  }
  return undefined;
};

/**
 * The next page of the plan at `now`, asked for by hand (escalate now), and the escalation start that makes the
 * pages after it keep their delays from now on; undefined when the plan has no page left.
 */
export const nextPage = (
  incident: Pick<Incident, 'escalationCount'>,
  plan: EscalationPlan,
  now: Date,
): { page: DuePage; startedAt: string } | undefined => {
  const sent = incident.escalationCount ?? 0;
  const next = plan.pages[sent];
  if (!next) return undefined;
  return {
    page: pageAt(plan, sent, sent + 1, now.getTime()),
    startedAt: new Date(now.getTime() - next.offsetMs).toISOString(),
  };
};
