import { replaceItem, updateItem } from '#lib/store/conditional-writes.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import { OUTCOMES, type Outcome, type Pattern } from './pattern.ts';

/**
 * OUTCOME (`{W}#OUTCOME` / `<incidentId>`, one per incident) and PATTERN (`{W}#PATTERN` / `<patternKey>`)
 * items: docs/data-model.md 5.15.
 */
const outcomeKey = (workspaceId: string, incidentId: string) => ({
  pk: workspaceKey(workspaceId, 'OUTCOME'),
  sk: incidentId,
});
const patternPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'PATTERN');

export interface OutcomeRecord {
  incidentId: string;
  outcome: Outcome;
  analysisId: string;
  patternKey: string;
  recordedAt: string;
}

/** What a learned outcome adds to its pattern besides the counts. */
export interface PatternObservation {
  patternKey: string;
  description: string;
  suspectKind: string;
  suspectService: string | null;
  affectedServices: string[];
  /** The first remediation of the analysis; it replaces the pattern's fix only when it worked (RESOLVED). */
  fix: string;
  fixWorked: boolean;
  at: string;
}

const patternFromItem = (item: Record<string, unknown>, workspaceId: string): Pattern => {
  if (item.workspaceId !== workspaceId) throw new Error('a pattern of another workspace was read');
  const services = item.affectedServices;
  return {
    patternId: String(item.sk),
    description: String(item.description ?? ''),
    occurrences: Math.max(0, Number(item.occurrences ?? 0)),
    affectedServices: services instanceof Set ? [...services].map(String).sort() : [],
    firstSeen: String(item.firstSeen ?? ''),
    lastSeen: String(item.lastSeen ?? ''),
    suggestedFix: String(item.suggestedFix ?? ''),
    suspectKind: String(item.suspectKind ?? 'UNKNOWN'),
    suspectService: typeof item.suspectService === 'string' ? item.suspectService : null,
    outcomes: Object.fromEntries(
      OUTCOMES.map((outcome) => [outcome, Math.max(0, Number(item[`outcome#${outcome}`] ?? 0))]),
    ) as Record<Outcome, number>,
  };
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const patternRepository = (table: Table, workspaceId: string) => {
  /** Writes the incident's outcome (the latest wins) and answers the one it replaced. */
  const putOutcome = async (record: OutcomeRecord): Promise<OutcomeRecord | undefined> => {
    const replaced = await replaceItem(table, {
      ...outcomeKey(workspaceId, record.incidentId),
      type: 'OUTCOME',
      workspaceId,
      ...record,
    });
    if (!replaced) return undefined;
    const { incidentId, outcome, analysisId, patternKey, recordedAt } = replaced as unknown as OutcomeRecord;
    return { incidentId, outcome, analysisId, patternKey, recordedAt };
  };

  /** Adds to a pattern's counts (one ADD, so concurrent outcomes never lose each other), creating it if new. */
  const countInPattern = async (
    patternKey: string,
    counts: Record<string, number>,
    observation?: PatternObservation,
  ): Promise<void> => {
    const adds = Object.entries(counts).filter(([, delta]) => delta !== 0);
    const sets = observation
      ? {
          description: observation.description,
          suspectKind: observation.suspectKind,
          suspectService: observation.suspectService,
          lastSeen: observation.at,
        }
      : {};
    const setEntries = Object.entries(sets).filter(([, value]) => value !== null);
    const withServices = !!observation && observation.affectedServices.length > 0;
    const addParts = [
      ...adds.map((_entry, index) => `#a${index} :a${index}`),
      ...(withServices ? ['#services :services'] : []),
    ];
    const fix = observation?.fixWorked ? '#fix = :fix' : '#fix = if_not_exists(#fix, :fix)';
    const setParts = [
      '#type = :type',
      '#workspaceId = :workspaceId',
      ...setEntries.map((_entry, index) => `#s${index} = :s${index}`),
      ...(observation ? ['#firstSeen = if_not_exists(#firstSeen, :at)', fix] : []),
    ];
    const clauses = [...(addParts.length > 0 ? [`ADD ${addParts.join(', ')}`] : []), `SET ${setParts.join(', ')}`];
    await updateItem(
      table,
      { pk: patternPartition(workspaceId), sk: patternKey },
      {
        UpdateExpression: clauses.join(' '),
        ExpressionAttributeNames: {
          '#type': 'type',
          '#workspaceId': 'workspaceId',
          ...Object.fromEntries(adds.map(([name], index) => [`#a${index}`, name])),
          ...Object.fromEntries(setEntries.map(([name], index) => [`#s${index}`, name])),
          ...(observation && { '#firstSeen': 'firstSeen', '#fix': 'suggestedFix' }),
          ...(withServices && { '#services': 'affectedServices' }),
        },
        ExpressionAttributeValues: {
          ':type': 'PATTERN',
          ':workspaceId': workspaceId,
          ...Object.fromEntries(adds.map(([, delta], index) => [`:a${index}`, delta])),
          ...Object.fromEntries(setEntries.map(([, value], index) => [`:s${index}`, value])),
          ...(observation && { ':at': observation.at, ':fix': observation.fix }),
          ...(withServices && { ':services': new Set(observation.affectedServices) }),
        },
      },
    );
  };

  /** Every pattern of the workspace: one partition, bounded by how many kinds of failure a team meets. */
  const listPatterns = async (): Promise<Pattern[]> =>
    (
      await queryAll(table, {
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': patternPartition(workspaceId) },
      })
    ).map((item) => patternFromItem(item, workspaceId));

  return { putOutcome, countInPattern, listPatterns };
};
