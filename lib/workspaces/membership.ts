import type { Account } from '#lib/accounts/account.ts';
import { accountRepository } from '#lib/accounts/account-repository.ts';
import { ConflictError, NotFoundError } from '#lib/contract/errors.ts';
import type { Role } from '#lib/identity/caller.ts';
import type { Table } from '#lib/store/table.ts';
import { memberView } from './members.ts';
import { workspaceAdminsRepository } from './workspace-admins-repository.ts';
import { workspaceRepository } from './workspace-repository.ts';
import type { Scope } from '#lib/identity/scope.ts';

const notAMember = () => new NotFoundError('Member not found', ['userId: no member of this workspace has this id']);

const lastAdmin = () =>
  new ConflictError('The workspace needs at least one ADMIN: make another member ADMIN first', [
    'userId: this member is the last ADMIN of the workspace',
  ]);

/** The account, if it is a member of the workspace; a member item alone is a leftover of an interrupted removal. */
const memberAccount = async (table: Table, workspaceId: string, accountId: string): Promise<Account> => {
  const workspaces = workspaceRepository(table, workspaceId);
  const account = await accountRepository(table, accountId).getAccount();
  if (account?.businessId === workspaceId) return account;
  if (await workspaces.getMember(accountId)) await workspaces.deleteMember(accountId);
  throw notAMember();
};

const isAdmin = (account: Account): boolean => account.roles.includes('ADMIN');

/** An ADMIN leaving that role first leaves the workspace's ADMINs, unless the workspace would have none. */
const stepDownAsAdmin = async (table: Table, workspaceId: string, account: Account): Promise<void> => {
  if (isAdmin(account) && !(await workspaceAdminsRepository(table, workspaceId).withdrawAdmin(account.id)))
    throw lastAdmin();
};

/** Puts an ADMIN back into the set after a change that did not happen (the account changed meanwhile). */
const restoreAdmin = async (table: Table, workspaceId: string, account: Account): Promise<void> => {
  const current = await accountRepository(table, account.id).getAccount();
  if (current?.businessId === workspaceId && isAdmin(current))
    await workspaceAdminsRepository(table, workspaceId).addAdmin(account.id);
};

/** A member item lost to an interrupted accept is written again from the account. */
const restoreMemberItem = async (table: Table, workspaceId: string, account: Account, role: Role, now: string) => {
  const member = {
    id: account.id,
    email: account.email,
    firstName: account.firstName,
    lastName: account.lastName,
    role,
    accessPermissions: [],
    status: 'ACTIVE' as const,
    joinedAt: now,
  };
  await workspaceRepository(table, workspaceId).putMember(member);
  return member;
};

/**
 * `PATCH /business/members/:userId`. The account's role is written first: that is what the next request
 * of the member is authorized by. Then the member item, which lists it.
 */
export const changeMemberRole = async (
  { ports: { table, clock }, workspaceId }: Scope,
  { userId: accountId, role }: { userId: string; role: Role },
) => {
  const account = await memberAccount(table, workspaceId, accountId);
  const now = clock.now().toISOString();
  if (role !== 'ADMIN') await stepDownAsAdmin(table, workspaceId, account);
  const updated = await accountRepository(table, accountId).setWorkspaceRole(workspaceId, role, now);
  if (!updated) {
    await restoreAdmin(table, workspaceId, account);
    throw notAMember();
  }
  if (role === 'ADMIN') await workspaceAdminsRepository(table, workspaceId).addAdmin(accountId);
  const member =
    (await workspaceRepository(table, workspaceId).setMemberRole(accountId, role)) ??
    (await restoreMemberItem(table, workspaceId, updated, role, now));
  return memberView(member);
};

/**
 * `DELETE /business/members/:userId`: the account becomes workspace-less at once (its next request is a
 * 403 on every workspace route) and keeps its login; then its member item goes.
 */
export const removeMember = async ({ ports: { table, clock }, workspaceId }: Scope, accountId: string) => {
  const account = await memberAccount(table, workspaceId, accountId);
  await stepDownAsAdmin(table, workspaceId, account);
  if (!(await accountRepository(table, accountId).leaveWorkspace(workspaceId, clock.now().toISOString()))) {
    await restoreAdmin(table, workspaceId, account);
    throw notAMember();
  }
  await workspaceRepository(table, workspaceId).deleteMember(accountId);
  return { id: accountId };
};
