import { incidentChildPartition } from '#lib/incidents/incident-item.ts';
import { deleteIf, putIf, updateIf } from '#lib/store/conditional-writes.ts';
import { getItem } from '#lib/store/items.ts';
import type { Table } from '#lib/store/table.ts';

/**
 * ANALYSIS_CLAIM (`{W}#INC#<incidentId>` / `ANALYSIS_RUN`): which analysis of the incident is running. One
 * item, so two concurrent requests cannot both start one (a GSI could not tell them apart); in the
 * incident's own partition, so it goes with the incident.
 */
const claimKey = (workspaceId: string, incidentId: string) => ({
  pk: incidentChildPartition(workspaceId, incidentId),
  sk: 'ANALYSIS_RUN',
});

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const analysisClaimRepository = (table: Table, workspaceId: string) => {
  /** Claims the incident for `analysisId`; false when another analysis holds it. */
  const claimIncident = (incidentId: string, analysisId: string, claimedAt: string): Promise<boolean> =>
    putIf(
      table,
      { ...claimKey(workspaceId, incidentId), type: 'ANALYSIS_CLAIM', workspaceId, incidentId, analysisId, claimedAt },
      { ConditionExpression: 'attribute_not_exists(pk)' },
    );

  /** The analysis holding the claim, read consistently: the one to answer instead of starting another. */
  const claimHolder = async (incidentId: string): Promise<string | undefined> => {
    const item = await getItem(table, claimKey(workspaceId, incidentId));
    return typeof item?.analysisId === 'string' ? item.analysisId : undefined;
  };

  /** Takes over a claim whose analysis has finished but did not release it (a crash between the two writes). */
  const takeOverClaim = async (incidentId: string, stale: string, analysisId: string, claimedAt: string) =>
    (await updateIf(table, claimKey(workspaceId, incidentId), {
      UpdateExpression: 'SET analysisId = :id, claimedAt = :at',
      ConditionExpression: 'analysisId = :stale',
      ExpressionAttributeValues: { ':id': analysisId, ':at': claimedAt, ':stale': stale },
    })) !== undefined;

  /** Releases the claim if `analysisId` still holds it; a repeated release does nothing. */
  const releaseClaim = async (incidentId: string, analysisId: string): Promise<void> => {
    await deleteIf(table, claimKey(workspaceId, incidentId), {
      ConditionExpression: 'analysisId = :id',
      ExpressionAttributeValues: { ':id': analysisId },
    });
  };
  return { claimIncident, claimHolder, takeOverClaim, releaseClaim };
};
