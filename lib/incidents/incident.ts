import type { SlaOutcome } from '#lib/sla/sla-policy.ts';
import { INCIDENT_STATUSES } from '#lib/tickets/ticket-statuses.ts';

/** Declared with the other ticket types' statuses, from which the tickets' list is derived. */
export { INCIDENT_STATUSES };
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

export const INCIDENT_PRIORITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
export type IncidentPriority = (typeof INCIDENT_PRIORITIES)[number];

/**
 * What a thread message reports: SYSTEM (created and other lifecycle notes), STATUS_CHANGE, ASSIGNMENT,
 * PRIORITY_CHANGE, RESOLUTION (the resolve action). Here rather than beside the thread's repository: the
 * route table's response schemas name them, and a cold start should not load the repository for a list of words.
 */
export const MESSAGE_KINDS = ['SYSTEM', 'STATUS_CHANGE', 'ASSIGNMENT', 'PRIORITY_CHANGE', 'RESOLUTION'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** The optional free-text fields of an incident, in the order the spec lists them. */
export const INCIDENT_TEXT_FIELDS = [
  'source',
  'serviceArea',
  'environment',
  'region',
  'assignedToEmail',
  'description',
  'techDescription',
  'impactSummary',
  'blastRadius',
] as const;
export type IncidentTextField = (typeof INCIDENT_TEXT_FIELDS)[number];

/** Every field a client may set on create or change with PUT. */
export const INCIDENT_EDITABLE_FIELDS = ['summary', 'priority', 'status', ...INCIDENT_TEXT_FIELDS] as const;
export type IncidentEditableField = (typeof INCIDENT_EDITABLE_FIELDS)[number];

/** An incident ticket (spec: Incident ticket). Its record id and ticket id are the same string. */
/** An incident's state before and after one write: undefined where it did not exist (created) or no longer does (deleted). */
export interface IncidentWrite {
  before: Incident | undefined;
  after: Incident | undefined;
}

export interface Incident extends Partial<Record<IncidentTextField, string>> {
  id: string;
  ticketId: string;
  businessId: string;
  summary: string;
  priority: IncidentPriority;
  status: IncidentStatus;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  /** Set on the first move out of OPEN and kept after, so time to acknowledge is measured once. */
  acknowledgedAt?: string;
  /** Who made that first move: the actor of the write, or the recipient of the acknowledge link used. */
  acknowledgedBy?: string;
  /** The page whose acknowledge link made that first move; absent when it was made through the API. */
  acknowledgedVia?: PageChannel;
  /** Set on entering RESOLVED or CLOSED; cleared when the incident is reopened. */
  resolvedAt?: string;
  resolvedBy?: string;
  /** What was done to end the incident, and why it happened: Markdown given when resolving. */
  resolution?: string;
  rootCause?: string;
  /** The time of the earliest signal correlation linked to it (`min`), for time to detect. */
  firstSignalAt?: string;
  /**
   * The SLA policy that governed the incident when it was created, the deadlines it set, and where the
   * incident stands against each (docs/sla-policies.md); absent when no policy governs it. The outcomes stay
   * when the policy is deleted.
   */
  slaPolicyId?: string;
  slaResponseDueAt?: string;
  slaResolveDueAt?: string;
  slaResponse?: SlaOutcome;
  slaResolve?: SlaOutcome;
  /**
   * Escalations sent while nobody acknowledged the incident (docs/escalation.md): how many, and the due time
   * of the last one. The count is also what makes each escalation go out once, whatever sweeps run.
   */
  escalationCount?: number;
  lastEscalatedAt?: string;
  /**
   * The level its escalation reached (docs/on-call.md): 1 from the opening page; absent is 1. The instant the
   * escalation's plan counts from: absent is `createdAt`; a return to OPEN after an ack timeout restarts it, an
   * escalate-now moves it so the next pages keep their delays from then.
   */
  escalationLevel?: number;
  escalationStartedAt?: string;
  /** The last move to ACKNOWLEDGED, from which an escalation policy's `ackTimeoutMinutes` counts. */
  lastAcknowledgedAt?: string;
}

/**
 * The channels incident notifications go out on; each of their pages of an OPEN incident carries an acknowledge
 * link, so an acknowledgement can name the one it came through. `PUSH` (Web Push to a member's devices) is
 * written as issue 46 names it (docs/decisions.md).
 */
export const PAGE_CHANNELS = ['chat', 'email', 'sms', 'PUSH'] as const;
export type PageChannel = (typeof PAGE_CHANNELS)[number];

/** Fields to change: a value sets it, `null` clears an optional text field, absent leaves it. */
export type IncidentChanges = Partial<Pick<Incident, 'summary' | 'priority' | 'status'>> &
  Partial<Record<IncidentTextField, string | null>>;

/**
 * `INC-YYYYMMDD-XXXX`: the UTC day of creation and that day's number in the workspace, zero-padded to four
 * digits; from 10000 on the number simply grows (`INC-20261123-10000`), so a day never runs out of ids.
 * Sixteen digits keep every number exact in JavaScript, far beyond any real day.
 */
export const INCIDENT_ID_PATTERN = /^INC-\d{8}-(?:\d{4}|[1-9]\d{4,15})$/;

export const isIncidentId = (value: string): boolean => INCIDENT_ID_PATTERN.test(value);

const DONE_STATUSES: readonly IncidentStatus[] = ['RESOLVED', 'CLOSED'];

/** RESOLVED and CLOSED: the incident's impact is over, so it has a resolution time. */
export const isDone = (status: IncidentStatus): boolean => DONE_STATUSES.includes(status);

/** Every status but OPEN means someone has taken the incident on. */
export const isAcknowledged = (status: IncidentStatus): boolean => status !== 'OPEN';

/** What an incident that never had them shows for its optional fields. */
const UNSET_FIELDS: Record<string, null> = {
  ...Object.fromEntries(INCIDENT_TEXT_FIELDS.map((field) => [field, null])),
  acknowledgedAt: null,
  resolvedAt: null,
  resolvedBy: null,
  resolution: null,
  rootCause: null,
};

/**
 * An incident as the API returns it: every field of the spec present, `null` when not set, so clients
 * see one shape whatever was filled in.
 */
export const incidentView = (incident: Incident): Record<string, unknown> => {
  const { id, ticketId, businessId, summary, priority, status, ...rest } = incident;
  return { id, ticketId, businessId, summary, priority, status, ...UNSET_FIELDS, escalationLevel: 1, ...rest };
};
