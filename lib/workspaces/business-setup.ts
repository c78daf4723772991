import { nullsFor, pick } from '#lib/contract/view-fields.ts';
import { toUser, type Account } from '#lib/accounts/account.ts';
import { AlreadyInWorkspaceError, accountRepository } from '#lib/accounts/account-repository.ts';
import { ConflictError, NotFoundError, UnauthorizedError } from '#lib/contract/errors.ts';
import type { SetupBusinessInput } from './schemas.ts';
import type { Workspace } from './workspace.ts';
import { createWorkspace, updateWorkspace } from './workspace-repository.ts';
import type { AccountScope } from '#lib/identity/scope.ts';
import { userOf } from '#lib/identity/caller.ts';

export const workspaceView = (workspace: Workspace) => ({
  ...pick(workspace, ['id', 'businessName', 'createdAt']),
  ...nullsFor(workspace, ['industry', 'size', 'timezone']),
});

export interface SetupResult {
  created: boolean;
  workspace: ReturnType<typeof workspaceView>;
  user: ReturnType<typeof toUser>;
}

/**
 * `PUT /business/setup`: an account without a workspace creates one and becomes its ADMIN; an ADMIN
 * (the route's access level) changes the given fields of their own workspace.
 */
export const setupBusiness = async (
  { ports: { table, clock, ids }, caller }: AccountScope,
  input: SetupBusinessInput,
): Promise<SetupResult> => {
  const accountId = userOf(caller).userId;
  const account = await accountRepository(table, accountId).getAccount();
  if (!account) throw new UnauthorizedError('Invalid token');
  const now = clock.now().toISOString();
  if (account.businessId) {
    const workspace = await updateWorkspace(table, account.businessId, input, now);
    if (!workspace) throw new NotFoundError('Workspace not found');
    return { created: false, workspace: workspaceView(workspace), user: toUser(account) };
  }
  const workspace: Workspace = { id: ids.sortable(), ...input, createdAt: now, updatedAt: now };
  let owner: Account;
  try {
    owner = await createWorkspace(table, workspace, account);
  } catch (error) {
    // A concurrent setup of the same account won; this workspace stays unreachable (data-model 7).
    if (error instanceof AlreadyInWorkspaceError)
      throw new ConflictError('This account already belongs to a workspace');
    throw error;
  }
  return { created: true, workspace: workspaceView(workspace), user: toUser(owner) };
};
