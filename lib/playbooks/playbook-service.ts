import { ConflictError, NotFoundError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { Page } from '#lib/store/pages.ts';
import { executionRepository } from './execution-repository.ts';
import { isSortableId, type Playbook, type PlaybookContent, sameContent } from './playbook.ts';
import { type PlaybookHead, playbookRepository } from './playbook-repository.ts';
import type { CreatePlaybookInput, ListPlaybooksInput, UpdatePlaybookInput } from './schemas.ts';

const notFound = (): NotFoundError => new NotFoundError('Playbook not found');

/** Read-modify-write of a head (docs/data-model.md 2): re-read and retry on a conflict, then 409. */
const ATTEMPTS = 3;

const contentOf = ({ title, description, steps, triggerConditions }: PlaybookContent): PlaybookContent => ({
  title,
  description,
  steps,
  triggerConditions,
});

export const createPlaybook = async ({ ports, workspaceId }: Scope, input: CreatePlaybookInput): Promise<Playbook> => {
  const now = ports.clock.now().toISOString();
  const playbook: Playbook = {
    id: ports.ids.sortable(),
    ...contentOf({ ...input, description: input.description ?? null }),
    status: 'DRAFT',
    version: 1,
    publishedVersion: null,
    publishedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await playbookRepository(ports.table, workspaceId).insertPlaybook(playbook);
  return playbook;
};

const findHead = async ({ ports, workspaceId }: Scope, playbookId: string): Promise<PlaybookHead> => {
  const head = isSortableId(playbookId)
    ? await playbookRepository(ports.table, workspaceId).findHead(playbookId)
    : undefined;
  if (!head) throw notFound();
  return head;
};

/**
 * The latest content, or with `version` an earlier one: a published version from its snapshot, or the
 * current draft (a version number is either published or the draft being edited).
 */
export const getPlaybook = async (
  scope: Scope,
  { id, version }: { id: string; version?: number },
): Promise<Playbook> => {
  const { playbook } = await findHead(scope, id);
  if (version === undefined || version === playbook.version) return playbook;
  const snapshot = await playbookRepository(scope.ports.table, scope.workspaceId).findVersion(id, version);
  if (!snapshot)
    throw new NotFoundError('Playbook version not found', [`version: playbook ${id} has no version ${version}`]);
  return {
    ...playbook,
    ...contentOf(snapshot),
    status: 'PUBLISHED',
    version: snapshot.version,
    publishedAt: snapshot.publishedAt,
  };
};

export const listPlaybooks = (
  { ports, workspaceId }: Scope,
  { page, limit, cursor, status }: ListPlaybooksInput,
): Promise<Page<Playbook>> =>
  playbookRepository(ports.table, workspaceId).queryPlaybooks(status, { page, limit, cursor });

/** Applies `change` to the head as last read, until it is written or `ATTEMPTS` conflicts made it a 409. */
const changeHead = async (
  scope: Scope,
  playbookId: string,
  change: (head: PlaybookHead) => Promise<Omit<PlaybookHead, 'rev'> | undefined>,
): Promise<Playbook> => {
  const playbooks = playbookRepository(scope.ports.table, scope.workspaceId);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const head = await findHead(scope, playbookId);
    const after = await change(head);
    if (!after) return head.playbook;
    if (await playbooks.replaceHead(head, after)) return after.playbook;
  }
  throw new ConflictError('The playbook changed while it was being written; try again');
};

/**
 * Changes the given fields. A DRAFT is edited in place; a PUBLISHED playbook gets the next version as a
 * new DRAFT, which is neither matched nor executed until it is published again (executions already
 * running keep their version).
 */
export const updatePlaybook = (
  scope: Scope,
  { id, changes }: { id: string; changes: UpdatePlaybookInput },
): Promise<Playbook> =>
  changeHead(scope, id, async ({ playbook, published }) => {
    const content = contentOf({
      ...playbook,
      ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
    });
    if (sameContent(content, playbook)) return undefined;
    const newDraft = playbook.status === 'PUBLISHED';
    return {
      playbook: {
        ...playbook,
        ...content,
        status: 'DRAFT',
        version: newDraft ? playbook.version + 1 : playbook.version,
        updatedAt: scope.ports.clock.now().toISOString(),
      },
      published,
    };
  });

/**
 * Freezes the latest content as its version (the snapshot first, so a crash leaves only an unreferenced
 * version that the retry writes again), then points the head at it. Publishing a PUBLISHED playbook
 * changes nothing.
 */
export const publishPlaybook = (scope: Scope, id: string): Promise<Playbook> =>
  changeHead(scope, id, async ({ playbook }) => {
    if (playbook.status === 'PUBLISHED') return undefined;
    const now = scope.ports.clock.now().toISOString();
    await playbookRepository(scope.ports.table, scope.workspaceId).insertVersion({
      playbookId: playbook.id,
      version: playbook.version,
      ...contentOf(playbook),
      publishedAt: now,
      publishedBy: scope.actor,
    });
    return {
      playbook: {
        ...playbook,
        status: 'PUBLISHED',
        publishedVersion: playbook.version,
        publishedAt: now,
        updatedAt: now,
      },
      published: { id: playbook.id, title: playbook.title, triggerConditions: playbook.triggerConditions },
    };
  });

/**
 * Permanent, with its executions: children first, the head last (docs/data-model.md 7), so a crash leaves
 * the playbook in place and a repeated DELETE finishes the job.
 */
export const deletePlaybook = async (scope: Scope, id: string): Promise<void> => {
  await findHead(scope, id);
  const { table } = scope.ports;
  await executionRepository(table, scope.workspaceId).removePlaybookExecutions(id);
  const playbooks = playbookRepository(table, scope.workspaceId);
  await playbooks.removePartition(id);
  if (!(await playbooks.removeHead(id))) throw notFound();
};
