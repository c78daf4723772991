import type { Member, Workspace } from './workspace.ts';
import type { Account } from '#lib/accounts/account.ts';
import type { Table } from '#lib/store/table.ts';
import type { Role } from '#lib/identity/caller.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { accountRepository } from '#lib/accounts/account-repository.ts';
import { queryAll } from '#lib/store/queries.ts';
import { deleteIf, deleteItem, putItem, putNew, updateIfPresent } from '#lib/store/conditional-writes.ts';
import { findItem } from '#lib/store/items.ts';
import { setFields } from '#lib/store/set-fields.ts';

/** The directory of every workspace (gsi3), read only by background jobs such as the correlation sweep. */
const WORKSPACE_DIRECTORY = 'DIRECTORY#WORKSPACE';

/** Every workspace id, from the directory: what background jobs walk. */
export const directoryWorkspaceIds = async (table: Table): Promise<string[]> => {
  const items = await queryAll(table, {
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :pk',
    ExpressionAttributeValues: { ':pk': WORKSPACE_DIRECTORY },
    ProjectionExpression: 'gsi3sk',
  });
  return items.map((item) => item.gsi3sk as string);
};

export const workspaceItemKey = (workspaceId: string) => ({ pk: workspaceKey(workspaceId), sk: 'WORKSPACE' });

const memberPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'MEMBER');

const memberItemKey = (workspaceId: string, accountId: string) => ({
  pk: memberPartition(workspaceId),
  sk: accountId,
});

const workspaceToItem = (workspace: Workspace): Record<string, unknown> => ({
  ...workspaceItemKey(workspace.id),
  type: 'WORKSPACE',
  workspaceId: workspace.id,
  gsi3pk: WORKSPACE_DIRECTORY,
  gsi3sk: workspace.id,
  ...workspace,
});

const workspaceFromItem = (item: Record<string, unknown>): Workspace => ({
  id: item.id as string,
  businessName: item.businessName as string,
  ...(item.industry !== undefined && { industry: item.industry as string }),
  ...(item.size !== undefined && { size: item.size as string }),
  ...(item.timezone !== undefined && { timezone: item.timezone as string }),
  createdAt: item.createdAt as string,
  updatedAt: item.updatedAt as string,
});

const memberToItem = (workspaceId: string, member: Member): Record<string, unknown> => ({
  ...memberItemKey(workspaceId, member.id),
  type: 'MEMBER',
  workspaceId,
  ...member,
});

const memberFromItem = (item: Record<string, unknown>): Member => {
  const { pk: _pk, sk: _sk, type: _type, workspaceId: _workspaceId, ...member } = item;
  return member as unknown as Member;
};

/**
 * Creates a workspace owned by `owner`: the workspace (with the owner as its one ADMIN, see
 * workspace-admins-repository.ts), its first member as ADMIN, then the account's pointer to it. The pointer is written last and only if the account has no workspace yet, so a crash
 * or a lost race leaves at most an unreachable workspace, never an account in two.
 */
/** SETs the given fields only; a workspace that is gone is undefined. */
export const updateWorkspace = async (
  table: Table,
  workspaceId: string,
  fields: Partial<Pick<Workspace, 'businessName' | 'industry' | 'size' | 'timezone'>>,
  now: string,
): Promise<Workspace | undefined> => {
  const item = await updateIfPresent(table, workspaceItemKey(workspaceId), setFields({ ...fields, updatedAt: now }));
  return item && workspaceFromItem(item);
};

export const createWorkspace = async (table: Table, workspace: Workspace, owner: Account): Promise<Account> => {
  await putNew(table, { ...workspaceToItem(workspace), adminIds: new Set([owner.id]) });
  await workspaceRepository(table, workspace.id).putMember({
    id: owner.id,
    email: owner.email,
    firstName: owner.firstName,
    lastName: owner.lastName,
    role: 'ADMIN',
    accessPermissions: [],
    status: 'ACTIVE',
    joinedAt: workspace.createdAt,
  });
  return accountRepository(table, owner.id).joinWorkspace(workspace.id, ['ADMIN'], workspace.createdAt);
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const workspaceRepository = (table: Table, workspaceId: string) => {
  const getWorkspace = async (): Promise<Workspace | undefined> => {
    return findItem(table, workspaceItemKey(workspaceId), (item) => workspaceFromItem(item), false);
  };

  const putMember = async (member: Member): Promise<void> => {
    await putItem(table, memberToItem(workspaceId, member));
  };

  const getMember = async (accountId: string): Promise<Member | undefined> => {
    return findItem(table, memberItemKey(workspaceId, accountId), (item) => memberFromItem(item));
  };

  /** Sets the role on the member item; undefined when there is no member item to change. */
  const setMemberRole = async (accountId: string, role: Role) => {
    const item = await updateIfPresent(table, memberItemKey(workspaceId, accountId), {
      UpdateExpression: 'SET #role = :role',
      ExpressionAttributeNames: { '#role': 'role' },
      ExpressionAttributeValues: { ':role': role },
    });
    return item && memberFromItem(item);
  };

  const deleteMember = async (accountId: string): Promise<void> => {
    await deleteItem(table, memberItemKey(workspaceId, accountId));
  };

  const listMembers = async (): Promise<Member[]> => {
    const items = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': memberPartition(workspaceId) },
    });
    return items.map(memberFromItem);
  };
  /**
   * Deletes the workspace if `accountId` is its one ADMIN, then that member: what a business registration
   * opened for an address it never proved. A workspace with anyone else as ADMIN stays.
   */
  const discardOpenedBy = async (accountId: string): Promise<void> => {
    const discarded = await deleteIf(table, workspaceItemKey(workspaceId), {
      ConditionExpression: 'size(adminIds) = :one AND contains(adminIds, :account)',
      ExpressionAttributeValues: { ':one': 1, ':account': accountId },
    });
    if (discarded) await deleteMember(accountId);
  };
  return { getWorkspace, putMember, getMember, setMemberRole, deleteMember, listMembers, discardOpenedBy };
};
