import { toUser, type Account } from '#lib/accounts/account.ts';
import {
  AccountChangedError,
  AlreadyInWorkspaceError,
  EmailTakenError,
  createAccount,
  accountRepository,
} from '#lib/accounts/account-repository.ts';
import { findAddressHolder } from '#lib/accounts/address-holder.ts';
import { hashPassword, verifyPassword } from '#lib/accounts/passwords.ts';
import { BadRequestError, ConflictError, UnauthorizedError } from '#lib/contract/errors.ts';
import type { Caller } from '#lib/identity/caller.ts';
import type { Invite } from './invite-repository.ts';
import { markInviteAccepted } from './invite-repository.ts';
import { openInvite } from './invitations.ts';
import type { AcceptInviteInput } from './schemas.ts';
import { workspaceAdminsRepository } from './workspace-admins-repository.ts';
import { workspaceRepository } from './workspace-repository.ts';
import type { AccountScope } from '#lib/identity/scope.ts';
import { takeOverAddress } from './address-proof.ts';
import { discardDisplaced } from './unproven-registrations.ts';

const NEW_ACCOUNT_FIELDS = ['password', 'firstName', 'lastName'] as const;

const newAccount = async (
  scope: AccountScope,
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
  const { table, ids } = scope.ports;
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
    await discardDisplaced(scope, await createAccount(table, account));
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
 * The invitation's token came through the mailbox, so its holder takes the address over (address-proof.ts):
 * their password, the registrant's sessions ended and the workspace the registrant opened discarded.
 */
const takeOver = async (
  scope: AccountScope,
  account: Account,
  invite: Invite,
  input: AcceptInviteInput,
  now: string,
) => {
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
    return await takeOverAddress(scope, account, credentials, now);
  } catch (error) {
    if (error instanceof AccountChangedError) throw new ConflictError('The account changed while accepting; try again');
    throw error;
  }
};

/**
 * A Bearer token names who accepts: one of another account than the invited address's is refused alike
 * whether that address has a verified account, an unverified one or none, so the answer tells nothing
 * about the address and nobody joins a workspace on someone else's invitation.
 */
const refuseForeignBearer = (holder: Account | undefined, invite: Invite, caller: Caller): void => {
  if (caller.kind !== 'user' || (holder?.isVerified && caller.userId === holder.id)) return;
  throw new UnauthorizedError(`The invitation is for ${invite.email}: sign in as it, or send no Bearer token`, [
    'authorization: the Bearer token belongs to another account',
  ]);
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
    'password: missing or wrong for the existing account',
  ]);
};

/**
 * The invited address's account, proven or taken over or created, pointing at the workspace. Only a
 * verified account can be in another workspace by its owner's choice (409); an unverified one's workspace
 * is discarded by the takeover, so an invitation always gets its holder in.
 */
const accountFor = async (scope: AccountScope, invite: Invite, input: AcceptInviteInput, now: string) => {
  const { ports, caller } = scope;
  const existing = await findAddressHolder(scope, invite.email);
  refuseForeignBearer(existing, invite, caller);
  if (!existing) return newAccount(scope, invite, input, now);
  if (existing.isVerified && existing.businessId && existing.businessId !== invite.workspaceId) {
    throw alreadyInWorkspace(invite.email);
  }
  if (existing.isVerified) await requireOwner(existing, input, caller);
  const owned = existing.isVerified ? existing : await takeOver(scope, existing, invite, input, now);
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
 * the workspace's ADMINs, what `onJoined` does (the turns the invitation held, lib/schedules/invited-turns.ts),
 * then the invitation marked accepted under a condition. Each earlier step is idempotent, so a retry after a crash
 * completes it.
 */
export const acceptInvite = async (
  scope: AccountScope,
  input: AcceptInviteInput,
  onJoined?: (joined: { workspaceId: string; email: string; userId: string; now: string }) => Promise<void>,
) => {
  const { ports } = scope;
  const { token, invite } = await openInvite(scope, input.token);
  const workspaces = workspaceRepository(ports.table, invite.workspaceId);
  const now = ports.clock.now().toISOString();
  const account = await accountFor(scope, invite, input, now);
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
  await onJoined?.({ workspaceId: invite.workspaceId, email: invite.email, userId: account.id, now });
  if (!(await markInviteAccepted(ports.table, token, now))) {
    throw new ConflictError('This invitation has already been used');
  }
  return { user: toUser(account), businessId: invite.workspaceId, role: invite.role };
};
