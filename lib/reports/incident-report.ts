import type { HistoryEvent } from '#lib/tickets/history.ts';
import type { ReportSignal } from './signal-details.ts';

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
  incident: {
    id: string;
    summary: string;
    priority: string;
    status: string;
    source?: string;
    serviceArea?: string;
    environment?: string;
    region?: string;
    assignedToEmail?: string;
    description?: string;
    techDescription?: string;
    impactSummary?: string;
    blastRadius?: string;
    createdAt: string;
    updatedAt?: string;
    acknowledgedAt?: string;
    resolvedAt?: string;
    resolvedBy?: string;
    resolution?: string;
    rootCause?: string;
  };
  comments: { authorEmail: string; content: string; createdAt: string }[];
  /** The message thread: system events, status transitions, notifications. */
  messages: { kind: string; text: string; actor: string; createdAt: string }[];
  history: HistoryEvent[];
  /** The first linked signals, in the order they were triggered; `moreSignals` counts the others. */
  signals: ReportSignal[];
  moreSignals: number;
  /** The latest completed analysis, when one exists. */
  analysis?: {
    hypothesis: string;
    rootCause: string;
    impactAssessment: string;
    contributingFactors: string[];
    remediationOptions: string[];
    confidence: number;
    /**
     * When its evidence was gathered: what it says holds as of then. An incident resolved after it was open when
     * the analysis was made, and its texts say "as of" this time.
     */
    asOf: string;
    completedAt: string;
  };
}
