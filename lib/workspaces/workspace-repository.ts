import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { joinWorkspace } from '#lib/accounts/account-repository.ts';
import type { Account } from '#lib/accounts/account.ts';
import type { Table } from '#lib/store/table.ts';
import { queryAll } from '#lib/store/queries.ts';
import { unlessConditionFails } from '#lib/store/conditional-writes.ts';
import type { Role } from '#lib/identity/caller.ts';
import type { Member, Workspace } from './workspace.ts';
import {
  memberFromItem,
  memberItemKey,
  memberPartition,
  memberToItem,
  workspaceFromItem,
  workspaceItemKey,
  workspaceToItem,
} from './workspace-item.ts';

export const getWorkspace = async (table: Table, workspaceId: string): Promise<Workspace | undefined> => {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: workspaceItemKey(workspaceId) }));
  return Item && workspaceFromItem(Item);
};

export const putMember = async (table: Table, workspaceId: string, member: Member): Promise<void> => {
  await table.doc.send(new PutCommand({ TableName: table.name, Item: memberToItem(workspaceId, member) }));
};

export const getMember = async (table: Table, workspaceId: string, accountId: string): Promise<Member | undefined> => {
  const { Item } = await table.doc.send(
    new GetCommand({ TableName: table.name, Key: memberItemKey(workspaceId, accountId), ConsistentRead: true }),
  );
  return Item && memberFromItem(Item);
};

/** Sets the role on the member item; undefined when there is no member item to change. */
export const setMemberRole = async (table: Table, workspaceId: string, accountId: string, role: Role) => {
  return unlessConditionFails(async () => {
    const { Attributes } = await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: memberItemKey(workspaceId, accountId),
        UpdateExpression: 'SET #role = :role',
        ConditionExpression: 'attribute_exists(sk)',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':role': role },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes && memberFromItem(Attributes);
  });
};

export const deleteMember = async (table: Table, workspaceId: string, accountId: string): Promise<void> => {
  await table.doc.send(new DeleteCommand({ TableName: table.name, Key: memberItemKey(workspaceId, accountId) }));
};

export const listMembers = async (table: Table, workspaceId: string): Promise<Member[]> => {
  const items = await queryAll(table, {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': memberPartition(workspaceId) },
  });
  return items.map(memberFromItem);
};

/**
 * Creates a workspace owned by `owner`: the workspace (with the owner as its one ADMIN, see
 * workspace-admins-repository.ts), its first member as ADMIN, then the account's pointer to it. The pointer is written last and only if the account has no workspace yet, so a crash
 * or a lost race leaves at most an unreachable workspace, never an account in two.
 */
export const createWorkspace = async (table: Table, workspace: Workspace, owner: Account): Promise<Account> => {
  await table.doc.send(
    new PutCommand({
      TableName: table.name,
      Item: { ...workspaceToItem(workspace), adminIds: new Set([owner.id]) },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  await putMember(table, workspace.id, {
    id: owner.id,
    email: owner.email,
    firstName: owner.firstName,
    lastName: owner.lastName,
    role: 'ADMIN',
    accessPermissions: [],
    status: 'ACTIVE',
    joinedAt: workspace.createdAt,
  });
  return joinWorkspace(table, owner.id, workspace.id, ['ADMIN'], workspace.createdAt);
};
