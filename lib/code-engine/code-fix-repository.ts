import {
  incidentChildKey,
  incidentChildToItem,
  type IncidentChildKind,
} from '#lib/incidents/incident-child-repository.ts';
import { putItem, updateIf } from '#lib/store/conditional-writes.ts';
import { findItem } from '#lib/store/items.ts';
import type { Table } from '#lib/store/table.ts';
import type { CodeFix, PullRequestRecord } from './code-fix.ts';

/** As stored: the unified diff is not, since it is the files' patches with their headers. */
export type StoredCodeFix = Omit<CodeFix, 'diff'>;

/** CODE_FIX (docs/data-model.md 5.4): one per incident, in its partition, so deleting the incident deletes it. */
const CODE_FIX: IncidentChildKind<StoredCodeFix> = {
  type: 'CODE_FIX',
  sortPrefix: 'CODEFIX',
  placeOf: (fix) => ({ incidentId: fix.incidentId, id: '' }),
  fields: [
    'fixId',
    'incidentId',
    'kind',
    'title',
    'rationale',
    'repository',
    'commitSha',
    'files',
    'evidence',
    'generatedAt',
    'generatedBy',
    'pullRequest',
  ],
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const codeFixRepository = (table: Table, workspaceId: string) => {
  const key = (incidentId: string) => incidentChildKey(CODE_FIX, workspaceId, incidentId, '');

  const findFix = (incidentId: string): Promise<StoredCodeFix | undefined> =>
    findItem(table, key(incidentId), (item) => {
      if (item.workspaceId !== workspaceId) throw new Error('a CODE_FIX item of another workspace was read');
      return Object.fromEntries(CODE_FIX.fields.map((field) => [field, item[field] ?? null])) as StoredCodeFix;
    });

  /** A new fix replaces the incident's earlier one, and with it the record of that one's pull request. */
  const saveFix = async (fix: StoredCodeFix): Promise<void> => {
    await putItem(table, incidentChildToItem(CODE_FIX, workspaceId, fix));
  };

  /**
   * The pull request opened for the fix `fixId`; false when the stored fix is another one by now or
   * already has a pull request (a concurrent request opened it first).
   */
  const recordPullRequest = async (
    incidentId: string,
    fixId: string,
    pullRequest: PullRequestRecord,
  ): Promise<boolean> =>
    (await updateIf(table, key(incidentId), {
      UpdateExpression: 'SET #pullRequest = :pullRequest',
      ConditionExpression: '#fixId = :fixId AND (attribute_not_exists(#pullRequest) OR #pullRequest = :none)',
      ExpressionAttributeNames: { '#pullRequest': 'pullRequest', '#fixId': 'fixId' },
      ExpressionAttributeValues: { ':pullRequest': pullRequest, ':fixId': fixId, ':none': null },
    })) !== undefined;
  return { findFix, saveFix, recordPullRequest };
};
