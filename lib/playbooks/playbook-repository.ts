import { batchDeleteItems } from '#lib/store/batch.ts';
import { deleteIfPresent, putIf, putNew } from '#lib/store/conditional-writes.ts';
import { findItem, type Item, keyOf } from '#lib/store/items.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { type QueryInput, queryAll } from '#lib/store/queries.ts';
import { type Page, type PageRequest, queryPage } from '#lib/store/pages.ts';
import type { Table } from '#lib/store/table.ts';
import type {
  Playbook,
  PlaybookContent,
  PlaybookStatus,
  PlaybookVersion,
  PublishedSummary,
  TriggerConditions,
} from './playbook.ts';
import { countListWrite, readCountedTotal } from '#lib/store/list-counters.ts';
import { PLAYBOOK_COUNTER } from './playbook-counter.ts';

/**
 * PLAYBOOK heads and PLAYBOOK_VERSION snapshots (docs/data-model.md 5.9): heads in `{W}#PLAYBOOK`, gsi1 by
 * status, gsi3 (sparse) while a version is published; versions in `{W}#PLAYBOOK#<id>` / `V#<n>`.
 */
export const headPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'PLAYBOOK');
const statusPartition = (workspaceId: string, status: PlaybookStatus): string =>
  workspaceKey(workspaceId, 'PLAYBOOK', 'STATUS', status);
const publishedPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'PLAYBOOK', 'PUBLISHED');
/** A playbook's own partition: its versions, its ad-hoc actions, and below it its executions. */
export const playbookPartition = (workspaceId: string, playbookId: string): string =>
  workspaceKey(workspaceId, 'PLAYBOOK', playbookId);

const headKey = (workspaceId: string, playbookId: string) => ({ pk: headPartition(workspaceId), sk: playbookId });
const versionKey = (workspaceId: string, playbookId: string, version: number) => ({
  pk: playbookPartition(workspaceId, playbookId),
  sk: `V#${String(version).padStart(6, '0')}`,
});

/** A head as read: the playbook, the `rev` its next write must carry, and what matching scores. */
export interface PlaybookHead {
  playbook: Playbook;
  rev: number;
  published: PublishedSummary | null;
}

/** Rebuilt field by field, so two equal contents serialize alike (`sameContent`). */
const contentOf = (item: Item): PlaybookContent => ({
  title: item.title as string,
  description: (item.description as string | null | undefined) ?? null,
  steps: (item.steps as PlaybookContent['steps']).map((step) => ({
    title: step.title,
    instructions: step.instructions ?? null,
    optional: step.optional,
  })),
  triggerConditions: triggerConditionsOf(item.triggerConditions as TriggerConditions),
});

const triggerConditionsOf = (stored: TriggerConditions): TriggerConditions => ({
  serviceArea: stored.serviceArea ?? [],
  priority: stored.priority ?? [],
  environment: stored.environment ?? [],
  keywords: stored.keywords ?? [],
});

const headToItem = (workspaceId: string, { playbook, rev, published }: PlaybookHead): Item => ({
  ...headKey(workspaceId, playbook.id),
  gsi1pk: statusPartition(workspaceId, playbook.status),
  gsi1sk: playbook.id,
  ...(published && {
    gsi3pk: publishedPartition(workspaceId),
    gsi3sk: playbook.id,
    publishedTitle: published.title,
    publishedTriggerConditions: published.triggerConditions,
  }),
  type: 'PLAYBOOK',
  workspaceId,
  ...playbook,
  rev,
});

const headFromItem = (item: Item, workspaceId: string): PlaybookHead => {
  if (item.workspaceId !== workspaceId) throw new Error(`playbook ${String(item.id)} read outside its workspace`);
  const playbook: Playbook = {
    id: item.id as string,
    ...contentOf(item),
    status: item.status as PlaybookStatus,
    version: item.version as number,
    publishedVersion: (item.publishedVersion as number | null | undefined) ?? null,
    publishedAt: (item.publishedAt as string | null | undefined) ?? null,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
  const published = item.publishedTitle
    ? {
        id: playbook.id,
        title: item.publishedTitle as string,
        triggerConditions: triggerConditionsOf(item.publishedTriggerConditions as TriggerConditions),
      }
    : null;
  return { playbook, rev: item.rev as number, published };
};

const versionFromItem = (item: Item, workspaceId: string): PlaybookVersion => {
  if (item.workspaceId !== workspaceId) throw new Error('a playbook version was read outside its workspace');
  return {
    playbookId: item.playbookId as string,
    version: item.version as number,
    ...contentOf(item),
    publishedAt: item.publishedAt as string,
    publishedBy: item.publishedBy as string,
  };
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const playbookRepository = (table: Table, workspaceId: string) => {
  const insertPlaybook = async (playbook: Playbook): Promise<void> => {
    await putNew(table, headToItem(workspaceId, { playbook, rev: 1, published: null }));
    await countListWrite(table, workspaceId, PLAYBOOK_COUNTER, undefined, playbook);
  };

  const findHead = (playbookId: string): Promise<PlaybookHead | undefined> =>
    findItem(table, headKey(workspaceId, playbookId), (item) => headFromItem(item, workspaceId));

  /**
   * Replaces the head if nobody wrote it since `before` was read (`rev`), and counts a status move;
   * false when another write came first (the caller reads again).
   */
  const replaceHead = async (before: PlaybookHead, after: Omit<PlaybookHead, 'rev'>): Promise<boolean> => {
    const written = await putIf(table, headToItem(workspaceId, { ...after, rev: before.rev + 1 }), {
      ConditionExpression: 'rev = :rev',
      ExpressionAttributeValues: { ':rev': before.rev },
    });
    if (written) await countListWrite(table, workspaceId, PLAYBOOK_COUNTER, before.playbook, after.playbook);
    return written;
  };

  /** A retried publish finds its version written already: the same number always holds the same content. */
  const insertVersion = async (version: PlaybookVersion): Promise<void> => {
    await putIf(
      table,
      {
        ...versionKey(workspaceId, version.playbookId, version.version),
        type: 'PLAYBOOK_VERSION',
        workspaceId,
        ...version,
      },
      { ConditionExpression: 'attribute_not_exists(pk)' },
    );
  };

  const findVersion = (playbookId: string, version: number): Promise<PlaybookVersion | undefined> =>
    findItem(table, versionKey(workspaceId, playbookId, version), (item) => versionFromItem(item, workspaceId));

  /** Newest first: ids are ULIDs. The total is the counter's. */
  const queryPlaybooks = (status: PlaybookStatus | undefined, page: PageRequest): Promise<Page<Playbook>> => {
    const input: QueryInput = status
      ? {
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': statusPartition(workspaceId, status) },
        }
      : { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': headPartition(workspaceId) } };
    return queryPage(
      table,
      { ...input, ScanIndexForward: false },
      page,
      (item) => headFromItem(item, workspaceId).playbook,
      () => readCountedTotal(table, workspaceId, PLAYBOOK_COUNTER, { status }),
    );
  };

  /**
   * What matching scores: the published version's title and trigger conditions of every PUBLISHED
   * playbook. A head under a new draft keeps its gsi3 keys, but is not matched until it is published again.
   */
  const queryPublished = async (): Promise<PublishedSummary[]> => {
    const items = await queryAll(table, {
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :pk',
      FilterExpression: '#status = :published',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pk': publishedPartition(workspaceId), ':published': 'PUBLISHED' },
      ScanIndexForward: false,
    });
    return items.flatMap((item) => headFromItem(item, workspaceId).published ?? []);
  };

  /** The playbook's own partition: its version snapshots, and the action counts its executions left. */
  const removePartition = async (playbookId: string): Promise<void> => {
    const items = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': playbookPartition(workspaceId, playbookId) },
      ProjectionExpression: 'pk, sk',
    });
    await batchDeleteItems(table, items.map(keyOf));
  };

  /** Deletes the head and answers it as it was; undefined if there was none. */
  const removeHead = async (playbookId: string): Promise<Playbook | undefined> => {
    const item = await deleteIfPresent(table, headKey(workspaceId, playbookId));
    if (!item) return undefined;
    const removed = headFromItem(item, workspaceId).playbook;
    await countListWrite(table, workspaceId, PLAYBOOK_COUNTER, removed, undefined);
    return removed;
  };

  return {
    insertPlaybook,
    findHead,
    replaceHead,
    insertVersion,
    findVersion,
    queryPlaybooks,
    queryPublished,
    removePartition,
    removeHead,
  };
};
