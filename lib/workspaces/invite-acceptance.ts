import { toUser, type Account } from '#lib/accounts/account.ts';
import {
  AccountChangedError,
  AlreadyInWorkspaceError,
  EmailTakenError,
  createAccount,
  findAccountByEmail,
  accountRepository,
} from '#lib/accounts/account-repository.ts';
import { hashPassword, verifyPassword } from '#lib/accounts/passwords.ts';
import { BadRequestError, ConflictError, UnauthorizedError } from '#lib/contract/errors.ts';
import type { Caller } from '#lib/identity/caller.ts';
import type { Ports } from '#lib/ports/ports.ts';
import type { Invite } from './invite-repository.ts';
import { markInviteAccepted } from './invite-repository.ts';
import { openInvite } from './invitations.ts';
import type { AcceptInviteInput } from './schemas.ts';
import { workspaceAdminsRepository } from './workspace-admins-repository.ts';
import { workspaceRepository } from './workspace-repository.ts';
import type { AccountScope } from '#lib/identity/scope.ts';

const NEW_ACCOUNT_FIELDS = ['password', 'firstName', 'lastName'] as const;

const newAccount = async (
  { table, ids }: Ports,
  invite: Invite,
  input: AcceptInviteInput,
  now: string,
): Promise<Account> => {
  const missing = NEW_ACCOUNT_FIELDS.filter((field) => input[field] === undefined);
  if (missing.length > 0) {
    throw new BadRequestError(
      'No account exists for the invited address: password, firstName and lastName are required to create it',
      missing.map((field) => `${field}: required to create the account for ${invite.email}`),
    );
  }
  const account: Account = {
    id: ids.uuid(),
    email: invite.email,
    firstName: input.firstName as string,
    lastName: input.lastName as string,
    // The invitation reached this address, which is what verification proves.
    isVerified: true,
    accountType: 'BUSINESS',
    businessId: invite.workspaceId,
    roles: [invite.role],
    passwordHash: await hashPassword(input.password as string),
    createdAt: now,
    updatedAt: now,
  };
  try {
    await createAccount(table, account);
  } catch (error) {
    if (error instanceof EmailTakenError) throw new ConflictError('This invitation is being accepted already');
    throw error;
  }
  return account;
};

const alreadyInWorkspace = (email: string) =>
  new ConflictError('This account already belongs to a workspace', [
    `email: ${email} is a member of another workspace`,
  ]);

/**
 * Anyone may register an address without owning it; until it is verified, the account proves nothing.
 * The invitation's token came through the mailbox, so its holder sets the password, and the same write
 * raises the session version: the earlier password, access and refresh tokens all stop working.
 */
const takeOver = async ({ table }: Ports, account: Account, invite: Invite, input: AcceptInviteInput, now: string) => {
  if (input.password === undefined) {
    throw new BadRequestError('The invited address has an unverified account: choose its password to accept', [
      `password: required to take over the unverified account of ${invite.email}`,
    ]);
  }
  const credentials = {
    passwordHash: await hashPassword(input.password),
    firstName: input.firstName,
    lastName: input.lastName,
  };
  try {
    return await accountRepository(table, account.id).replaceCredentials(credentials, now, invite.workspaceId);
  } catch (error) {
    if (error instanceof AccountChangedError) throw new ConflictError('The account changed while accepting; try again');
    throw error;
  }
};

/** A verified account joins only with its owner's consent: their Bearer token or their password. */
const requireOwner = async (account: Account, input: AcceptInviteInput, caller: Caller): Promise<void> => {
  if (caller.kind === 'user' && caller.userId === account.id) return;
  if (
    input.password !== undefined &&
    account.passwordHash &&
    (await verifyPassword(input.password, account.passwordHash))
  ) {
    return;
  }
  throw new UnauthorizedError(`${account.email} has an account: sign in as it (Bearer token) or give its password`, [
    caller.kind === 'user'
      ? 'authorization: the Bearer token belongs to another account'
      : 'password: missing or wrong for the existing account',
  ]);
};

/** The invited address's account, proven or taken over or created, pointing at the workspace. */
const accountFor = async (ports: Ports, invite: Invite, input: AcceptInviteInput, caller: Caller, now: string) => {
  const existing = await findAccountByEmail(ports.table, invite.email);
  if (!existing) return newAccount(ports, invite, input, now);
  if (existing.businessId && existing.businessId !== invite.workspaceId) throw alreadyInWorkspace(invite.email);
  if (existing.isVerified) await requireOwner(existing, input, caller);
  const owned = existing.isVerified ? existing : await takeOver(ports, existing, invite, input, now);
  // Already pointing here: the leftover of an accept that stopped before marking the invitation.
  if (owned.businessId === invite.workspaceId) return owned;
  try {
    return await accountRepository(ports.table, owned.id).joinWorkspace(invite.workspaceId, [invite.role], now);
  } catch (error) {
    if (error instanceof AlreadyInWorkspaceError) throw alreadyInWorkspace(invite.email);
    throw error;
  }
};

/**
 * Accepts in the order of docs/data-model.md 5.2: the account (what access is decided by), the member,
 * the workspace's ADMINs, then the invitation marked accepted under a condition. Each earlier step is
 * idempotent, so a retry after a crash completes it.
 */
export const acceptInvite = async (scope: AccountScope, input: AcceptInviteInput) => {
  const { ports, caller } = scope;
  const { token, invite } = await openInvite(scope, input.token);
  const workspaces = workspaceRepository(ports.table, invite.workspaceId);
  const now = ports.clock.now().toISOString();
  const account = await accountFor(ports, invite, input, caller, now);
  if (!(await workspaces.getMember(account.id))) {
    await workspaces.putMember({
      id: account.id,
      email: account.email,
      firstName: account.firstName,
      lastName: account.lastName,
      role: invite.role,
      ...(invite.level !== undefined && { level: invite.level }),
      accessPermissions: invite.accessPermissions,
      status: 'ACTIVE',
      joinedAt: now,
    });
  }
  if (invite.role === 'ADMIN') await workspaceAdminsRepository(ports.table, invite.workspaceId).addAdmin(account.id);
  if (!(await markInviteAccepted(ports.table, token, now))) {
    throw new ConflictError('This invitation has already been used');
  }
  return { user: toUser(account), businessId: invite.workspaceId, role: invite.role };
};
