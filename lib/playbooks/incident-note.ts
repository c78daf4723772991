import { findIncident } from '#lib/incidents/get-incident.ts';
import { recordMessages } from '#lib/incidents/message-repository.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { recordHistory } from '#lib/tickets/history-repository.ts';
import type { Execution } from './execution.ts';

/** The incident an execution links to; unknown or another workspace's: 404, before anything is written. */
export const linkedIncidentId = async (scope: Scope, incidentId: string): Promise<string> =>
  (await findIncident(scope, incidentId, 'incidentId')).id;

/**
 * Tells the linked incident that a playbook started on it: a SYSTEM message in its thread and a
 * PLAYBOOK_STARTED event in its history, both naming the playbook, its version and the execution.
 */
export const noteExecutionOnIncident = async (
  { ports, workspaceId, actor }: Scope,
  incidentId: string,
  execution: Execution,
): Promise<void> => {
  const text = `Playbook "${execution.playbookTitle}" (version ${execution.playbookVersion}) started: execution ${execution.executionId}`;
  await Promise.all([
    recordMessages(ports, workspaceId, incidentId, [{ kind: 'SYSTEM', text, actor }]),
    recordHistory(ports, workspaceId, [
      {
        ticketId: incidentId,
        ticketType: 'INCIDENT',
        event: 'PLAYBOOK_STARTED',
        to: execution.executionId,
        actor,
        message: text,
      },
    ]),
  ]);
};
