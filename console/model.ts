import type * as z from 'zod/mini';
import type { analysisSchema, latestAnalysisSchema } from '#lib/analysis/response-schemas.ts';
import type { HeartbeatView } from '#lib/heartbeats/schemas.ts';
import type { createdIntegrationKeyData, integrationKeyData } from '#lib/ingestion/integration-keys/schemas.ts';
import type { integrationSchema } from '#lib/integrations/schemas.ts';
import type { commentData, incidentData, incidentSignalData, messageData } from '#lib/incidents/response-schemas.ts';
import type { WindowView } from '#lib/maintenance/schemas.ts';
import type { deliverySchema } from '#lib/notifications/schemas.ts';
import type { assignmentData } from '#lib/on-call/schemas.ts';
import type { executionData } from '#lib/playbooks/response-schemas.ts';
import type { overrideView, scheduleView, shiftView } from '#lib/schedules/responses.ts';
import type { serviceView } from '#lib/service-map/responses.ts';
import type { signalSummaryView } from '#lib/signals/responses.ts';
import type { historyEventData } from '#lib/tickets/schemas.ts';
import type { memberData } from '#lib/workspaces/schemas.ts';

/**
 * The API's records as the console reads them: the types of the server's response schemas, imported type-only,
 * so none of the server's code reaches the browser and a field the server renames or drops is a compile error
 * here. The pages take the status, priority and severity lists from the server's modules that declare them.
 */
export type Incident = z.output<typeof incidentData>;
export type Comment = z.output<typeof commentData>;
export type Message = z.output<typeof messageData>;
export type HistoryEvent = z.output<typeof historyEventData>;
/** A signal as the list answers it; an incident's linked signals carry more. */
export type Signal = z.output<typeof signalSummaryView>;
/** A signal of an incident, with its sender's metadata (labels, annotations, runbook). */
export type IncidentSignal = z.output<typeof incidentSignalData>;
/** An analysis as it stands, what the page polls after starting one. */
export type AnalysisState = z.output<typeof analysisSchema>;
export type Analysis = z.output<typeof latestAnalysisSchema>;
export type Execution = z.output<typeof executionData>;
export type Notification = z.output<typeof deliverySchema>;
export type Member = z.output<typeof memberData>;
export type Assignment = z.output<typeof assignmentData>;
/** `GET /heartbeats` (docs/heartbeats.md). */
export type Heartbeat = HeartbeatView;
/** `GET /maintenance-windows` (docs/heartbeats.md). */
export type MaintenanceWindow = WindowView;
/** `GET /ingestion/integration-keys` (docs/ingestion.md): never the key itself. */
export type IntegrationKey = z.output<typeof integrationKeyData>;
/** The create's answer, the only one that carries the key. */
export type CreatedIntegrationKey = z.output<typeof createdIntegrationKeyData>;
export type Service = z.output<typeof serviceView>;
/** `GET /schedules` (docs/on-call.md): with its calendar link. */
export type Schedule = z.output<typeof scheduleView>;
/** A final shift: who, from when to when, and the layer or override behind it. */
export type Shift = z.output<typeof shiftView>;
export type Override = z.output<typeof overrideView>;
/** `GET /integrations/:userId`: a member's connections, a phone number among them. */
export type Integration = z.output<typeof integrationSchema>;
