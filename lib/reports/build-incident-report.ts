import type { Scope } from '#lib/identity/scope.ts';
import { commentRepository } from '#lib/incidents/comment-repository.ts';
import { findIncident } from '#lib/incidents/get-incident.ts';
import type { Incident } from '#lib/incidents/incident.ts';
import { incidentAnalysisRepository } from '#lib/incidents/incident-analysis-repository.ts';
import { messageRepository } from '#lib/incidents/message-repository.ts';
import { signalLinkRepository } from '#lib/incidents/signal-link-repository.ts';
import { signalIncidentRepository } from '#lib/signals/signal-incident-repository.ts';
import { historyRepository } from '#lib/tickets/history-repository.ts';
import { workspaceRepository } from '#lib/workspaces/workspace-repository.ts';
import { workspaceTimezone } from '#lib/workspaces/workspace-timezone.ts';
import { type IncidentReport, REPORTED_INCIDENT_FIELDS, type ReportedIncident } from './incident-report.ts';
import { reportNotifications, reportPlaybookRuns } from './report-responses.ts';
import { signalDetails } from '#lib/signals/signal-details.ts';

/** A report prints at most this many history events, the oldest first. */
const REPORT_HISTORY_LIMIT = 1_000;

/**
 * A report details this many of an incident's signals (one batch read) and counts the rest: an incident
 * correlated from a storm of alerts would otherwise print pages of the same labels.
 */
const REPORT_SIGNAL_LIMIT = 25;

const reportedIncident = (incident: Incident): ReportedIncident =>
  Object.fromEntries(REPORTED_INCIDENT_FIELDS.map((field) => [field, incident[field]])) as ReportedIncident;

/** The linked signals a report details, oldest trigger first, and how many it leaves out. */
const reportSignals = async (
  { ports: { table }, workspaceId }: Scope,
  incidentId: string,
): Promise<Pick<IncidentReport, 'signals' | 'moreSignals'>> => {
  const links = await signalLinkRepository(table, workspaceId).listSignalLinks(incidentId);
  const shown = links.slice(0, REPORT_SIGNAL_LIMIT).map((link) => link.signalId);
  const signals = shown.length === 0 ? [] : await signalIncidentRepository(table, workspaceId).readSignals(shown);
  return {
    signals: signals.map(signalDetails).sort((a, b) => Date.parse(a.triggeredAt) - Date.parse(b.triggeredAt)),
    moreSignals: links.length - shown.length,
  };
};

/**
 * Everything the PDF of an incident shows, read on request (nothing is stored): the incident, its
 * comments and messages, its history, its first signals, the playbook runs its history names, the
 * notifications sent, the workspace's name and time zone and the latest completed analysis if any.
 */
export const buildIncidentReport = async (scope: Scope, incidentId: string, note?: string): Promise<IncidentReport> => {
  const { ports, workspaceId } = scope;
  const incident = await findIncident(scope, incidentId);
  const [workspace, timezone, comments, messages, history, signals, analysis, notifications] = await Promise.all([
    workspaceRepository(ports.table, workspaceId).getWorkspace(),
    workspaceTimezone(scope),
    commentRepository(ports.table, workspaceId).listComments(incident.id),
    messageRepository(ports.table, workspaceId).listMessages(incident.id),
    historyRepository(ports.table, workspaceId).listHistory(
      { ticketId: incident.id },
      { page: 1, limit: REPORT_HISTORY_LIMIT },
    ),
    reportSignals(scope, incident.id),
    incidentAnalysisRepository(ports.table, workspaceId).latestCompletedAnalysis(incident.id),
    reportNotifications(scope, incident.id),
  ]);
  return {
    workspaceName: workspace?.businessName ?? '',
    generatedAt: ports.clock.now().toISOString(),
    timezone,
    ...(note && { note }),
    incident: reportedIncident(incident),
    comments: comments.map(({ authorEmail, content, createdAt }) => ({ authorEmail, content, createdAt })),
    messages: messages.map(({ kind, text, actor, createdAt }) => ({ kind, text, actor, createdAt })),
    history: history.items,
    ...signals,
    playbookRuns: await reportPlaybookRuns(scope, history.items),
    notifications,
    ...(analysis && { analysis }),
  };
};
