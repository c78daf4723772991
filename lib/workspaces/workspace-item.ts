import { workspaceKey } from '#lib/store/keys.ts';
import type { Member, Workspace } from './workspace.ts';

/** The directory of every workspace (gsi3), read only by background jobs such as the correlation sweep. */
export const WORKSPACE_DIRECTORY = 'DIRECTORY#WORKSPACE';

export const workspaceItemKey = (workspaceId: string) => ({ pk: workspaceKey(workspaceId), sk: 'WORKSPACE' });

export const memberPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'MEMBER');

export const memberItemKey = (workspaceId: string, accountId: string) => ({
  pk: memberPartition(workspaceId),
  sk: accountId,
});

export const workspaceToItem = (workspace: Workspace): Record<string, unknown> => ({
  ...workspaceItemKey(workspace.id),
  type: 'WORKSPACE',
  workspaceId: workspace.id,
  gsi3pk: WORKSPACE_DIRECTORY,
  gsi3sk: workspace.id,
  ...workspace,
});

export const workspaceFromItem = (item: Record<string, unknown>): Workspace => ({
  id: item.id as string,
  businessName: item.businessName as string,
  ...(item.industry !== undefined && { industry: item.industry as string }),
  ...(item.size !== undefined && { size: item.size as string }),
  ...(item.timezone !== undefined && { timezone: item.timezone as string }),
  createdAt: item.createdAt as string,
  updatedAt: item.updatedAt as string,
});

export const memberToItem = (workspaceId: string, member: Member): Record<string, unknown> => ({
  ...memberItemKey(workspaceId, member.id),
  type: 'MEMBER',
  workspaceId,
  ...member,
});

export const memberFromItem = (item: Record<string, unknown>): Member => {
  const { pk: _pk, sk: _sk, type: _type, workspaceId: _workspaceId, ...member } = item;
  return member as unknown as Member;
};
