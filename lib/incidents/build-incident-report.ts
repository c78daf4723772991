import type { IncidentReport } from '#lib/reports/incident-report.ts';
import { historyRepository } from '#lib/tickets/history-repository.ts';
import { workspaceRepository } from '#lib/workspaces/workspace-repository.ts';
import { commentRepository } from './comment-repository.ts';
import { findIncident } from './get-incident.ts';
import type { Incident } from './incident.ts';
import { incidentAnalysisRepository } from './incident-analysis-repository.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { messageRepository } from './message-repository.ts';

/** A report prints at most this many history events, the oldest first. */
const REPORT_HISTORY_LIMIT = 1_000;

const reportedIncident = (incident: Incident): IncidentReport['incident'] => ({
  id: incident.id,
  summary: incident.summary,
  priority: incident.priority,
  status: incident.status,
  source: incident.source,
  serviceArea: incident.serviceArea,
  environment: incident.environment,
  region: incident.region,
  assignedToEmail: incident.assignedToEmail,
  description: incident.description,
  techDescription: incident.techDescription,
  impactSummary: incident.impactSummary,
  blastRadius: incident.blastRadius,
  createdAt: incident.createdAt,
  updatedAt: incident.updatedAt,
  acknowledgedAt: incident.acknowledgedAt,
  resolvedAt: incident.resolvedAt,
});

/**
 * Everything the PDF of an incident shows, read on request (nothing is stored): the incident, its
 * comments and messages, its history, the workspace's name and the latest completed analysis if any.
 */
export const buildIncidentReport = async (scope: Scope, incidentId: string, note?: string): Promise<IncidentReport> => {
  const { ports: runtime, workspaceId } = scope;
  const incident = await findIncident(scope, incidentId);
  const [workspace, comments, messages, history, analysis] = await Promise.all([
    workspaceRepository(runtime.table, workspaceId).getWorkspace(),
    commentRepository(runtime.table, workspaceId).listComments(incident.id),
    messageRepository(runtime.table, workspaceId).listMessages(incident.id),
    historyRepository(runtime.table, workspaceId).listHistory(
      { ticketId: incident.id },
      { page: 1, limit: REPORT_HISTORY_LIMIT },
    ),
    incidentAnalysisRepository(runtime.table, workspaceId).latestCompletedAnalysis(incident.id),
  ]);
  return {
    workspaceName: workspace?.businessName ?? '',
    generatedAt: runtime.clock.now().toISOString(),
    ...(note && { note }),
    incident: reportedIncident(incident),
    comments: comments.map(({ authorEmail, content, createdAt }) => ({ authorEmail, content, createdAt })),
    messages: messages.map(({ text, actor, createdAt }) => ({ text, actor, createdAt })),
    history: history.items,
    ...(analysis && { analysis }),
  };
};
