import * as z from 'zod/mini';
import { count, nullableText } from '#lib/contract/response-fields.ts';
import type { SlaOutcome } from '#lib/sla/sla-policy.ts';
import { signalView } from '#lib/signals/responses.ts';
import {
  INCIDENT_PRIORITIES,
  INCIDENT_STATUSES,
  INCIDENT_TEXT_FIELDS,
  MESSAGE_KINDS,
  PAGE_CHANNELS,
  type Incident,
  type IncidentTextField,
} from './incident.ts';

/**
 * What the incident routes answer, for the route table only: kept apart from the request schemas, which
 * the correlation worker imports too and should not carry these.
 */

const SLA_OUTCOMES = ['PENDING', 'MET', 'BREACHED'] as const satisfies readonly SlaOutcome[];

/**
 * An incident as `incidentView` answers it: every field of the spec present, null when unset; the SLA
 * fields only on an incident a policy governs.
 */
export const incidentData = z.object({
  id: z.string(),
  ticketId: z.string(),
  businessId: z.string(),
  summary: z.string(),
  priority: z.enum(INCIDENT_PRIORITIES),
  status: z.enum(INCIDENT_STATUSES),
  ...(Object.fromEntries(INCIDENT_TEXT_FIELDS.map((field) => [field, nullableText])) as Record<
    IncidentTextField,
    typeof nullableText
  >),
  acknowledgedAt: nullableText,
  acknowledgedBy: z.optional(z.string()),
  acknowledgedVia: z.optional(z.enum(PAGE_CHANNELS)),
  resolvedAt: nullableText,
  resolvedBy: nullableText,
  resolution: z.nullable(z.string().check(z.describe('What ended the incident (Markdown), given when resolving'))),
  rootCause: z.nullable(z.string().check(z.describe('Why it happened (Markdown), given when resolving'))),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.string(),
  firstSignalAt: z.optional(z.string()),
  slaPolicyId: z.optional(z.string()),
  slaResponseDueAt: z.optional(z.string()),
  slaResolveDueAt: z.optional(z.string()),
  slaResponse: z.optional(z.enum(SLA_OUTCOMES)),
  slaResolve: z.optional(z.enum(SLA_OUTCOMES)),
  escalationCount: z.optional(count),
  lastEscalatedAt: z.optional(z.string()),
  escalationLevel: z.int(),
  escalationStartedAt: z.optional(z.string()),
  lastAcknowledgedAt: z.optional(z.string()),
} satisfies { [Field in keyof Incident]-?: z.ZodMiniType });

export const incidentIdData = z.object({ id: z.string() });

const countsOf = <const K extends readonly string[]>(keys: K) =>
  z.object(Object.fromEntries(keys.map((key) => [key, count])) as Record<K[number], typeof count>);

/** Totals from the workspace's incident counter; means in minutes, null without a sample. */
export const incidentAnalyticsData = z.object({
  total: count,
  byStatus: countsOf(INCIDENT_STATUSES),
  byPriority: countsOf(INCIDENT_PRIORITIES),
  meanTimeToAcknowledge: z.nullable(z.number()),
  meanTimeToResolve: z.nullable(z.number()),
});

/** A linked signal, whole, with when and by which correlation rule it was linked. */
export const incidentSignalData = z.object({ ...signalView.shape, linkedAt: z.string(), ruleId: z.string() });

export const commentData = z.object({
  id: z.string(),
  ticketId: z.string(),
  content: z.string(),
  authorEmail: z.string(),
  createdAt: z.string(),
});

/** A system message of the thread; `actor` is an e-mail, `api-key:<name>` or `system`. */
export const messageData = z.object({
  id: z.string(),
  ticketId: z.string(),
  kind: z.enum(MESSAGE_KINDS),
  text: z.string(),
  actor: z.string(),
  createdAt: z.string(),
});
