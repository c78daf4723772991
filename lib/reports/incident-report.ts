import type { CompletedAnalysis } from '#lib/incidents/incident-analysis-repository.ts';
import { INCIDENT_TEXT_FIELDS, type Incident } from '#lib/incidents/incident.ts';
import type { HistoryEvent } from '#lib/tickets/history.ts';
import type { ReportSignal } from '#lib/signals/signal-details.ts';

/** The incident's fields a report shows: its own, so a field added to the incident is one name here. */
export const REPORTED_INCIDENT_FIELDS = [
  'id',
  'summary',
  'priority',
  'status',
  ...INCIDENT_TEXT_FIELDS,
  'createdAt',
  'updatedAt',
  'acknowledgedAt',
  'resolvedAt',
  'resolvedBy',
  'resolution',
  'rootCause',
] as const satisfies readonly (keyof Incident)[];

export type ReportedIncident = Pick<Incident, (typeof REPORTED_INCIDENT_FIELDS)[number]>;

/** A playbook run on the incident: its steps as done, skipped or left, with their notes, and the actions added. */
export interface ReportPlaybookRun {
  title: string;
  version: number;
  status: string;
  startedBy: string;
  startedAt: string;
  steps: {
    title: string;
    optional: boolean;
    status: string;
    note: string | null;
    reason: string | null;
    finishedAt: string | null;
    finishedBy: string | null;
  }[];
  actions: { description: string; recordedBy: string; recordedAt: string }[];
}

/** A notification of an incident event to one recipient on one channel, and what became of it. */
export interface ReportNotification {
  event: string;
  channel: string;
  recipient: string;
  status: string;
  /** Its last attempt's time: when it went out, failed for good or was muted. */
  at: string;
}

/**
 * Everything an incident report shows, gathered by the incidents service and rendered to PDF by
 * `renderIncidentReportPdf`. Plain data, so the renderer depends on no repository.
 */
export interface IncidentReport {
  workspaceName: string;
  generatedAt: string;
  /** The IANA zone every time is printed in: the workspace's (docs/decisions.md), UTC when it has none. */
  timezone: string;
  /** Extra text the caller of the top-level PDF route supplied. */
  note?: string;
  incident: ReportedIncident;
  comments: { authorEmail: string; content: string; createdAt: string }[];
  /** The message thread: system events, status transitions, notifications. */
  messages: { kind: string; text: string; actor: string; createdAt: string }[];
  history: HistoryEvent[];
  /** The first linked signals, in the order they were triggered; `moreSignals` counts the others. */
  signals: ReportSignal[];
  moreSignals: number;
  /** The playbook runs on the incident, in the order they started. */
  playbookRuns: ReportPlaybookRun[];
  /** The notifications of the incident's events, oldest first. */
  notifications: ReportNotification[];
  /** The latest completed analysis, when one exists. */
  analysis?: CompletedAnalysis;
}
