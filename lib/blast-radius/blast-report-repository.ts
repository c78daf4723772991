import { addToListCounter, readListTotal, rewriteListCounter } from '#lib/store/list-counters.ts';
import { filterCounts, sumCounts } from '#lib/store/counters.ts';
import { putNew } from '#lib/store/conditional-writes.ts';
import { type Item, findItem } from '#lib/store/items.ts';
import { textOrNull } from '#lib/store/item-values.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { filterKey } from '#lib/store/filter-key.ts';
import { type QueryInput, queryAll } from '#lib/store/queries.ts';
import { type Page, type PageRequest, queryPage } from '#lib/store/pages.ts';
import type { Table } from '#lib/store/table.ts';
import type { AffectedService, BlastReport, TriggerType } from './blast-report.ts';

/**
 * BLAST_REPORT items (docs/data-model.md 5.14): base `{W}#BLAST` / `<reportId>` (a ULID, so newest first is
 * key order); gsi1 by environment and gsi3 by trigger, both sparse; gsi2 by the report's service.
 */
const reportPartition = (workspaceId: string) => workspaceKey(workspaceId, 'BLAST');
const environmentPartition = (workspaceId: string, environmentKey: string) =>
  workspaceKey(workspaceId, 'BLAST', 'ENV', environmentKey);
const servicePartition = (workspaceId: string, serviceId: string) =>
  workspaceKey(workspaceId, 'BLAST', 'SERVICE', serviceId);
const triggerPartition = (workspaceId: string, triggerId: string) =>
  workspaceKey(workspaceId, 'BLAST', 'TRIGGER', triggerId);

/** `total` and one attribute per combination of the list's two filters, so every total is one GetItem. */
const REPORT_COUNTER = { name: 'BLAST_REPORTS', type: 'BLAST_REPORT_COUNTER' };

export interface ReportFilter {
  serviceId?: string;
  environment?: string;
}

const counted = ({ serviceId, environment }: ReportFilter) =>
  filterCounts({ serviceId, environment: environment === undefined ? undefined : filterKey(environment) });

const reportToItem = (workspaceId: string, report: BlastReport): Item => {
  const environmentKey = report.environment === null ? undefined : filterKey(report.environment);
  return {
    pk: reportPartition(workspaceId),
    sk: report.reportId,
    gsi2pk: servicePartition(workspaceId, report.serviceId),
    gsi2sk: report.reportId,
    ...(environmentKey !== undefined && {
      environmentKey,
      gsi1pk: environmentPartition(workspaceId, environmentKey),
      gsi1sk: report.reportId,
    }),
    ...(report.triggerId !== null && {
      gsi3pk: triggerPartition(workspaceId, report.triggerId),
      gsi3sk: report.reportId,
    }),
    type: 'BLAST_REPORT',
    workspaceId,
    ...Object.fromEntries(Object.entries(report).filter(([, value]) => value !== null)),
  };
};

const reportFromItem = (item: Item, workspaceId: string): BlastReport => {
  if (item.workspaceId !== workspaceId) throw new Error(`report ${String(item.reportId)} read outside its workspace`);
  return {
    reportId: item.reportId as string,
    triggerId: textOrNull(item.triggerId),
    triggerType: textOrNull(item.triggerType) as TriggerType | null,
    serviceId: item.serviceId as string,
    environment: textOrNull(item.environment),
    depth: item.depth as number,
    affectedServices: item.affectedServices as AffectedService[],
    estimatedUserImpact: item.estimatedUserImpact as string,
    overallRiskScore: item.overallRiskScore as number,
    calculatedAt: item.calculatedAt as string,
  };
};

/** The partition of the most selective filter: the service's, else the environment's, else all. */
const listQuery = (workspaceId: string, { serviceId, environment }: ReportFilter): QueryInput => {
  const environmentKey = environment === undefined ? undefined : filterKey(environment);
  if (serviceId !== undefined) {
    return {
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ...(environmentKey !== undefined && { FilterExpression: 'environmentKey = :env' }),
      ExpressionAttributeValues: {
        ':pk': servicePartition(workspaceId, serviceId),
        ...(environmentKey !== undefined && { ':env': environmentKey }),
      },
      ScanIndexForward: false,
    };
  }
  if (environmentKey !== undefined) {
    return {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': environmentPartition(workspaceId, environmentKey) },
      ScanIndexForward: false,
    };
  }
  return {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': reportPartition(workspaceId) },
    ScanIndexForward: false,
  };
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const blastReportRepository = (table: Table, workspaceId: string) => {
  const insertReport = async (report: BlastReport): Promise<void> => {
    await putNew(table, reportToItem(workspaceId, report));
    const environment = report.environment ?? undefined;
    await addToListCounter(table, workspaceId, REPORT_COUNTER, counted({ serviceId: report.serviceId, environment }));
  };

  const findReport = (reportId: string): Promise<BlastReport | undefined> =>
    findItem(table, { pk: reportPartition(workspaceId), sk: reportId }, (item) => reportFromItem(item, workspaceId));

  const queryReports = (filter: ReportFilter, page: PageRequest): Promise<Page<BlastReport>> =>
    queryPage(
      table,
      listQuery(workspaceId, filter),
      page,
      (item) => reportFromItem(item, workspaceId),
      () =>
        readListTotal(table, workspaceId, REPORT_COUNTER, {
          serviceId: filter.serviceId,
          environment: filter.environment === undefined ? undefined : filterKey(filter.environment),
        }),
    );

  /** Every report of a trigger, newest first: a trigger has a handful. */
  const reportsOfTrigger = async (triggerId: string): Promise<BlastReport[]> => {
    const items = await queryAll(table, {
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :pk',
      ExpressionAttributeValues: { ':pk': triggerPartition(workspaceId, triggerId) },
      ScanIndexForward: false,
    });
    return items.map((item) => reportFromItem(item, workspaceId));
  };

  return { insertReport, findReport, queryReports, reportsOfTrigger };
};

/**
 * The recount (data-model 6): the counter rewritten from the reports' two counted attributes, answering
 * what the risk sums are rebuilt from, so one read of the reports serves both. Outside the repository's
 * request operations, so the blast-radius bundle leaves it out.
 */
export const recountReports = async (
  table: Table,
  workspaceId: string,
): Promise<Pick<BlastReport, 'affectedServices' | 'calculatedAt'>[]> => {
  const items = await queryAll(table, {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': reportPartition(workspaceId) },
    ProjectionExpression: 'serviceId, environmentKey, affectedServices, calculatedAt',
  });
  const contributions = items.map((item) =>
    filterCounts({ serviceId: item.serviceId as string, environment: textOrNull(item.environmentKey) ?? undefined }),
  );
  await rewriteListCounter(table, workspaceId, REPORT_COUNTER, sumCounts(contributions));
  return items.map((item) => ({
    affectedServices: item.affectedServices as AffectedService[],
    calculatedAt: item.calculatedAt as string,
  }));
};
