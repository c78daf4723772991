import * as z from 'zod/mini';
import { storableNumber } from '#lib/store/stored-json.ts';
import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import type { NormalizedAction, SignalSeverity } from '#lib/signals/signal-event.ts';
import type { NormalizedEvent, Normalizer } from '#lib/ingestion/normalized-event.ts';
import { PayloadError, parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact, optionalDateTime, optionalText } from '#lib/ingestion/schema-kit.ts';
import { severityFromLevel, severityFromPriority } from '#lib/ingestion/severity.ts';

const SENDER = 'paging';

const referenceSchema = z.object({
  id: optionalText,
  summary: optionalText,
  name: optionalText,
  html_url: optionalText,
});

/** The incident as both versions carry it (v2 `messages[].incident`, v3 `event.data` of an incident event). */
const incidentSchema = z.object({
  id: z.string().check(z.minLength(1)),
  incident_number: z.nullish(storableNumber),
  number: z.nullish(storableNumber),
  title: optionalText,
  summary: optionalText,
  status: optionalText,
  urgency: optionalText,
  priority: z.nullish(referenceSchema),
  incident_key: optionalText,
  html_url: optionalText,
  created_at: optionalDateTime,
  service: z.nullish(referenceSchema),
  escalation_policy: z.nullish(referenceSchema),
  teams: z.nullish(z.array(referenceSchema)),
  assignees: z.nullish(z.array(referenceSchema)),
  assignments: z.nullish(z.array(z.object({ assignee: z.nullish(referenceSchema) }))),
});
type Incident = z.output<typeof incidentSchema>;

const v2Schema = z.object({
  messages: z
    .array(
      z.object({
        id: optionalText,
        event: z.string().check(z.minLength(1)),
        created_on: optionalDateTime,
        incident: incidentSchema,
        log_entries: z.nullish(z.array(z.object({ agent: z.nullish(referenceSchema) }))),
      }),
    )
    .check(z.minLength(1)),
});

const v3EventSchema = z.object({
  id: z.string().check(z.minLength(1)),
  event_type: z.string().check(z.minLength(1)),
  resource_type: optionalText,
  occurred_at: optionalDateTime,
  agent: z.nullish(referenceSchema),
  data: z.object({ type: optionalText, id: optionalText, incident: z.nullish(referenceSchema) }),
});
const v3Schema = z.object({ event: v3EventSchema });
const v3IncidentSchema = z.object({ event: z.extend(v3EventSchema, { data: incidentSchema }) });

/** v2 bodies carry `messages`, v3 bodies an `event`. */
const versionSchema = z.object({ messages: z.optional(z.unknown()), event: z.optional(z.unknown()) });

/** v2 `incident.resolve`, v3 `incident.resolved`. */
const RESOLVES = new Set(['incident.resolve', 'incident.resolved']);

/**
 * A resolve resolves; any other event about an incident that is not resolved opens or merges into its signal
 * (trigger, acknowledge, escalate, reassign, priority change...: the incident is still a problem, and a missed
 * trigger is made up for); events about resolved incidents and about other resources are records.
 */
const actionOf = (event: string, status: string | null | undefined): NormalizedAction => {
  if (RESOLVES.has(event)) return 'resolve';
  return status === 'resolved' ? 'record' : 'trigger';
};

/** The priority (`P1`..`P5`) when the account uses them, else the urgency: high is HIGH, low is LOW. */
const severityOf = (incident: Incident): SignalSeverity =>
  severityFromPriority(incident.priority?.summary) ?? severityFromLevel(incident.urgency) ?? 'MEDIUM';

const incidentEvent = (
  incident: Incident,
  event: string,
  facts: { eventId?: string | null; occurredAt?: string | null; agent?: string | null; version: 'v2' | 'v3' },
  receivedAt: string,
): NormalizedEvent => {
  const action = actionOf(event, incident.status);
  const assignees = [
    ...(incident.assignees ?? []),
    ...(incident.assignments ?? []).flatMap((assignment) => assignment.assignee ?? []),
  ].flatMap((assignee) => assignee.summary ?? []);
  return {
    signal: {
      name: incident.title ?? incident.summary ?? `Incident ${incident.id}`,
      source: SENDER,
      type: action === 'record' ? 'incident_update' : 'incident',
      severity: action === 'record' ? 'LOW' : severityOf(incident),
      serviceId: incident.service?.summary ?? incident.service?.name ?? undefined,
      metadata: compact({
        webhookVersion: facts.version,
        event,
        eventId: facts.eventId,
        incidentId: incident.id,
        incidentNumber: incident.incident_number ?? incident.number,
        incidentKey: incident.incident_key,
        incidentUrl: incident.html_url,
        status: incident.status,
        urgency: incident.urgency,
        priority: incident.priority?.summary,
        service: incident.service?.summary ?? incident.service?.name,
        serviceExternalId: incident.service?.id,
        escalationPolicy: incident.escalation_policy?.summary,
        teams: incident.teams?.flatMap((team) => team.summary ?? []),
        assignees,
        agent: facts.agent,
      }),
      triggeredAt: incident.created_at ?? facts.occurredAt ?? receivedAt,
    },
    fingerprint: fingerprintOf(incident.id),
    action,
  };
};

const v2Events = (body: unknown, receivedAt: string): NormalizedEvent[] =>
  parsePayload(SENDER, v2Schema, body).messages.map((message) =>
    incidentEvent(
      message.incident,
      message.event,
      {
        eventId: message.id,
        occurredAt: message.created_on,
        agent: message.log_entries?.[0]?.agent?.summary,
        version: 'v2',
      },
      receivedAt,
    ),
  );

const v3Event = (body: unknown, receivedAt: string): NormalizedEvent => {
  const { event } = parsePayload(SENDER, v3Schema, body);
  const facts = {
    eventId: event.id,
    occurredAt: event.occurred_at,
    agent: event.agent?.summary,
    version: 'v3' as const,
  };
  if (event.data.type === 'incident') {
    const incident = parsePayload(SENDER, v3IncidentSchema, body).event.data;
    return incidentEvent(incident, event.event_type, facts, receivedAt);
  }
  // Notes, responders, status updates...: about an incident named by reference, or about another resource.
  const incidentId = event.data.incident?.id;
  const subject = incidentId ?? event.data.id ?? event.id;
  return {
    signal: {
      name: `${event.event_type}${event.data.incident?.summary ? `: ${event.data.incident.summary}` : ''}`,
      source: SENDER,
      type: event.event_type,
      severity: 'LOW',
      metadata: compact({
        webhookVersion: facts.version,
        event: event.event_type,
        eventId: event.id,
        resourceType: event.resource_type,
        incidentId,
        incidentUrl: event.data.incident?.html_url,
        agent: facts.agent,
      }),
      triggeredAt: event.occurred_at ?? receivedAt,
    },
    fingerprint: fingerprintOf(event.event_type, subject),
    action: 'record',
  };
};

/**
 * Paging-tool webhooks: v2 (`messages[]`, one event each) and v3 (one `event`). The fingerprint is the incident
 * id, so the trigger, its updates and its resolve all meet on one signal.
 */
export const normalizePaging: Normalizer = (body, _headers, receivedAt) => {
  const received = receivedAt.toISOString();
  const version = parsePayload(SENDER, versionSchema, body);
  if (version.messages !== undefined) return v2Events(body, received);
  if (version.event !== undefined) return [v3Event(body, received)];
  throw new PayloadError(SENDER, ['messages: Invalid input: expected array, received undefined (or a v3 event)']);
};
