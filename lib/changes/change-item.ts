import { deploymentFailureSeverity } from '#lib/changes/change-input.ts';
import { filterKey } from '#lib/store/keys.ts';
import type { ChangeInput } from '#lib/changes/change-input.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { ticketIndexKeys } from '#lib/tickets/ticket-index.ts';

/**
 * CHANGE items (docs/data-model.md 5.6): base `{W}#CHANGE` / `<changeId>`, in the unified ticket list (gsi3)
 * by their first `createdAt`. Item `type` CHANGE is also the ticket type.
 */
export const changePartition = (workspaceId: string): string => workspaceKey(workspaceId, 'CHANGE');

export const changeItemKey = (workspaceId: string, changeId: string) => ({
  pk: changePartition(workspaceId),
  sk: changeId,
});

/** The ticket-list keys a change gets when it is first written; later writes keep them (`if_not_exists`). */
export const changeTicketKeys = (workspaceId: string, changeId: string, createdAt: string) =>
  ticketIndexKeys(workspaceId, { id: changeId, createdAt });

/**
 * The attributes every deployment event sets. `createdAt`, the ticket keys and `providerUpdatedAt` are written
 * by the repository: the first two once, the last as the order of events.
 */
export const changeFields = (workspaceId: string, change: ChangeInput): Record<string, unknown> => ({
  type: 'CHANGE',
  workspaceId,
  id: change.changeKey,
  provider: change.provider,
  providerDeploymentId: change.providerDeploymentId,
  summary: change.summary,
  status: change.status,
  // A change is as urgent as its failure would be: HIGH to production, MEDIUM elsewhere.
  priority: deploymentFailureSeverity(change.environment),
  environment: change.environment,
  repository: change.repository,
  repositoryKey: filterKey(change.repository),
  commitSha: change.commitSha,
  assignedToEmail: change.deployer,
});
