import { batchPutItems } from '#lib/store/batch.ts';
import { addToCounters } from '#lib/store/add-to-counters.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';

/**
 * SERVICE_RISK items (docs/data-model.md 5.14): `{W}#BLASTRISK` / `<serviceId>`, each service's running
 * sum of the scores reports gave it and how many did, kept on write so the risk summary is one Query.
 */
const riskPartition = (workspaceId: string) => workspaceKey(workspaceId, 'BLASTRISK');

export interface ServiceRisk {
  serviceId: string;
  name: string;
  scoreSum: number;
  reports: number;
  lastCalculatedAt: string;
}

export const serviceRiskRepository = (table: Table, workspaceId: string) => {
  /** One ADD per service: concurrent reports never lose each other's scores. */
  const addScores = async (
    scores: readonly { serviceId: string; name: string; riskScore: number }[],
    calculatedAt: string,
  ): Promise<void> => {
    await Promise.all(
      scores.map(({ serviceId, name, riskScore }) =>
        addToCounters(
          table,
          { pk: riskPartition(workspaceId), sk: serviceId },
          { scoreSum: riskScore, reports: 1 },
          { type: 'SERVICE_RISK', workspaceId, serviceId, name, lastCalculatedAt: calculatedAt },
        ),
      ),
    );
  };

  const readRisks = async (): Promise<ServiceRisk[]> => {
    const items = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': riskPartition(workspaceId) },
    });
    return items.map((item) => ({
      serviceId: item.serviceId as string,
      name: item.name as string,
      scoreSum: item.scoreSum as number,
      reports: item.reports as number,
      lastCalculatedAt: item.lastCalculatedAt as string,
    }));
  };

  return { addScores, readRisks };
};

/** Each service's sums written whole, as the recount computed them from the reports. */
export const rewriteServiceRisks = (table: Table, workspaceId: string, risks: readonly ServiceRisk[]): Promise<void> =>
  batchPutItems(
    table,
    risks.map((risk) => ({
      pk: riskPartition(workspaceId),
      sk: risk.serviceId,
      type: 'SERVICE_RISK',
      workspaceId,
      ...risk,
    })),
  );
