import type { IncidentPriority, IncidentStatus } from '#lib/incidents/incident.ts';
import { incidentStatusPartition } from '#lib/incidents/incident-item.ts';
import { runStatusPartition } from '#lib/pipelines/pipeline-run-item.ts';
import type { SignalSeverity, SignalStatus } from '#lib/signals/signal.ts';
import { signalStatusPartition } from '#lib/signals/signal-item.ts';
import { filterKey } from '#lib/store/filter-key.ts';
import { type QueryInput, queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';

/** Signals that still say something is wrong; a suppressed one no longer counts (spec: Signal status). */
const LIVE_SIGNAL_STATUSES: readonly SignalStatus[] = ['OPEN', 'ACKNOWLEDGED'];
const LIVE_INCIDENT_STATUSES: readonly IncidentStatus[] = ['OPEN', 'ACKNOWLEDGED', 'INVESTIGATION', 'MITIGATED'];

export interface LiveSignal {
  serviceId: string;
  severity: SignalSeverity;
}

export interface LiveIncident {
  /** The incident's `serviceArea`: one service, or several joined by commas as correlation writes it. */
  serviceArea: string;
  priority: IncidentPriority;
}

const byStatus = (partition: string, projection: string[], extra: Partial<QueryInput> = {}): QueryInput => ({
  IndexName: 'gsi1',
  KeyConditionExpression: 'gsi1pk = :pk',
  ProjectionExpression: projection.map((_name, index) => `#p${index}`).join(', '),
  ...extra,
  ExpressionAttributeNames: {
    ...Object.fromEntries(projection.map((name, index) => [`#p${index}`, name])),
    ...extra.ExpressionAttributeNames,
  },
  ExpressionAttributeValues: { ':pk': partition, ...extra.ExpressionAttributeValues },
});

/**
 * What blast radius reads of other capabilities at calculation time, through their status indexes and
 * only the attributes it scores: the live signals and incidents that name a service, and failed pipeline
 * runs since an instant. Names are matched to services by the caller, so ingestion does no extra work.
 */
export const serviceTroubleRepository = (table: Table, workspaceId: string) => {
  const liveSignals = async (): Promise<LiveSignal[]> => {
    const pages = await Promise.all(
      LIVE_SIGNAL_STATUSES.map((status) =>
        queryAll(
          table,
          byStatus(signalStatusPartition(workspaceId, status), ['serviceId', 'severity'], {
            FilterExpression: 'attribute_exists(#p0)',
          }),
        ),
      ),
    );
    return pages.flat() as unknown as LiveSignal[];
  };

  /** An environment given: incidents of another environment do not count; those of none do. */
  const liveIncidents = async (environment: string | null): Promise<LiveIncident[]> => {
    const environmentFilter = environment !== null && {
      FilterExpression: 'attribute_exists(#p0) AND (attribute_not_exists(#env) OR #env = :env)',
      ExpressionAttributeNames: { '#env': 'environmentKey' },
      ExpressionAttributeValues: { ':env': filterKey(environment) },
    };
    const pages = await Promise.all(
      LIVE_INCIDENT_STATUSES.map((status) =>
        queryAll(
          table,
          byStatus(
            incidentStatusPartition(workspaceId, status),
            ['serviceArea', 'priority'],
            environmentFilter || { FilterExpression: 'attribute_exists(#p0)' },
          ),
        ),
      ),
    );
    return pages.flat() as unknown as LiveIncident[];
  };

  /** The repositories of failed runs started at `since` or later (the index sorts by `<startedAt>#<runId>`). */
  const failedRunRepositories = async (since: string): Promise<string[]> => {
    const items = await queryAll(
      table,
      byStatus(runStatusPartition(workspaceId, 'failure'), ['repository'], {
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk >= :since',
        ExpressionAttributeValues: { ':since': since },
      }),
    );
    return items.map((item) => String(item.repository));
  };

  return { liveSignals, liveIncidents, failedRunRepositories };
};
