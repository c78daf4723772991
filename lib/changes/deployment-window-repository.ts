import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import { ticketListPartition } from '#lib/tickets/ticket-index.ts';
import type { ChangeStatus } from './change-input.ts';

/** A CHANGE as readers outside the ticket list see it: the deployment and when it was first seen. */
export interface Deployment {
  id: string;
  provider: string;
  summary: string;
  status: ChangeStatus;
  environment: string;
  repository: string;
  commitSha: string | null;
  deployer: string | null;
  createdAt: string;
}

/**
 * Deployments by time, for readers outside ingestion (the analysis engine): kept apart from
 * change-repository so the ingestion path's bundle does not carry it.
 */
export const deploymentWindowRepository = (table: Table, workspaceId: string) => {
  /**
   * Deployments first seen in `[from, to]` (ISO instants), oldest first: one range of the unified ticket
   * list (gsi3, by `createdAt`), whose incidents and problems of the same window the filter drops.
   */
  const changesCreatedBetween = async (from: string, to: string): Promise<Deployment[]> => {
    const items = await queryAll(table, {
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk BETWEEN :from AND :to',
      FilterExpression: '#type = :change',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: {
        ':pk': ticketListPartition(workspaceId),
        ':from': from,
        ':to': `${to}~`,
        ':change': 'CHANGE',
      },
    });
    return items.map((item) => ({
      id: String(item.id),
      provider: String(item.provider),
      summary: String(item.summary ?? ''),
      status: item.status as ChangeStatus,
      environment: String(item.environment ?? ''),
      repository: String(item.repository ?? ''),
      commitSha: typeof item.commitSha === 'string' ? item.commitSha : null,
      deployer: typeof item.assignedToEmail === 'string' ? item.assignedToEmail : null,
      createdAt: String(item.createdAt),
    }));
  };
  return { changesCreatedBetween };
};
