import type { Scope } from '#lib/identity/scope.ts';
import { deliveryRepository } from '#lib/notifications/delivery-repository.ts';
import { executionRepository } from '#lib/playbooks/execution-repository.ts';
import type { HistoryEvent } from '#lib/tickets/history.ts';
import type { ReportNotification, ReportPlaybookRun } from './incident-report.ts';

/**
 * The playbook runs on the incident: its history names each run it started (PLAYBOOK_STARTED, `to` the
 * execution id), so they are read by id, in the order they started, with no index of runs by incident.
 */
export const reportPlaybookRuns = async (
  { ports: { table }, workspaceId }: Scope,
  history: readonly HistoryEvent[],
): Promise<ReportPlaybookRun[]> => {
  const executions = executionRepository(table, workspaceId);
  const ids = [
    ...new Set(history.flatMap((event) => (event.event === 'PLAYBOOK_STARTED' && event.to ? [event.to] : []))),
  ];
  const found = await Promise.all(ids.map((id) => executions.findExecution(id)));
  return found.flatMap((record): ReportPlaybookRun[] => {
    if (!record) return [];
    const { execution } = record;
    return [
      {
        title: execution.playbookTitle,
        version: execution.playbookVersion,
        status: execution.status,
        startedBy: execution.startedBy,
        startedAt: execution.startedAt,
        steps: execution.steps.map(({ title, optional, status, note, reason, finishedAt, finishedBy }) => ({
          title,
          optional,
          status,
          note,
          reason,
          finishedAt,
          finishedBy,
        })),
        actions: execution.actions.map(({ description, recordedBy, recordedAt }) => ({
          description,
          recordedBy,
          recordedAt,
        })),
      },
    ];
  });
};

/** Every notification of the incident's events, oldest first, at the time of its last attempt. */
export const reportNotifications = async (
  { ports: { table }, workspaceId }: Scope,
  incidentId: string,
): Promise<ReportNotification[]> => {
  const deliveries = await deliveryRepository(table, workspaceId).queryIncidentDeliveries(incidentId);
  return deliveries
    .map(({ event, channel, recipient, status, attempts, updatedAt }) => ({
      event,
      channel,
      recipient,
      status,
      at: attempts.at(-1)?.at ?? updatedAt,
    }))
    .sort((a, b) => a.at.localeCompare(b.at));
};
