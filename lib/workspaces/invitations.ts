import { toUser, type Account } from '#lib/accounts/account.ts';
import {
  AlreadyInWorkspaceError,
  EmailTakenError,
  createAccount,
  findAccountByEmail,
  joinWorkspace,
  updateAccount,
} from '#lib/accounts/account-repository.ts';
import { hashPassword } from '#lib/accounts/passwords.ts';
import { BadRequestError, ConflictError, NotFoundError } from '#lib/http/errors.ts';
import type { MailMessage } from '#lib/ports/mail/mail.ts';
import type { Runtime } from '#lib/runtime/runtime.ts';
import type { Invite } from './invite-item.ts';
import { getInviteByToken, markInviteAccepted, putInvite, supersedePendingInvites } from './invite-repository.ts';
import { formatInviteToken, parseInviteToken, type InviteToken } from './invite-token.ts';
import type { AcceptInviteInput, SendInviteInput } from './schemas.ts';
import type { Workspace } from './workspace.ts';
import { getMember, getWorkspace, putMember } from './workspace-repository.ts';

/** Invitations expire after 7 days (spec, Limits). */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const invitationMail = (workspace: Workspace, invite: Invite, token: string): MailMessage => ({
  to: invite.email,
  subject: `You are invited to join ${workspace.businessName}`,
  text: [
    `You have been invited to join ${workspace.businessName} as ${invite.role}.`,
    `Accept the invitation: {APP_URL}/accept-invite?token=${encodeURIComponent(token)}`,
    `The invitation expires at ${invite.expiresAt}. If you did not expect it, ignore this e-mail.`,
  ].join('\n\n'),
  token,
});

export const sendInvite = async (
  { table, clock, ids, mail }: Runtime,
  workspaceId: string,
  inviterId: string,
  input: SendInviteInput,
) => {
  const workspace = await getWorkspace(table, workspaceId);
  if (!workspace) throw new NotFoundError('Workspace not found');
  const account = await findAccountByEmail(table, input.email);
  if (account && (await getMember(table, workspaceId, account.id))) {
    throw new ConflictError('This address belongs to a member of the workspace already', [
      `email: ${input.email} is already a member`,
    ]);
  }
  const now = clock.now();
  const createdAt = now.toISOString();
  const invite: Invite = {
    id: ids.sortable(),
    workspaceId,
    email: input.email,
    role: input.role,
    ...(input.level !== undefined && { level: input.level }),
    accessPermissions: input.accessPermissions,
    invitedBy: inviterId,
    expiresAt: new Date(now.getTime() + INVITE_TTL_MS).toISOString(),
    createdAt,
    updatedAt: createdAt,
  };
  const token: InviteToken = { workspaceId, inviteId: invite.id, secret: ids.secret() };
  await supersedePendingInvites(table, workspaceId, invite.email, createdAt);
  await putInvite(table, invite, token);
  await mail.send(invitationMail(workspace, invite, formatInviteToken(token)));
  return { inviteId: invite.id, email: invite.email, expiresAt: invite.expiresAt };
};

/**
 * The pending invitation a token names. A token replaced by a re-send answers 404, like an unknown one:
 * the re-send replaced that invitation, so it no longer exists for its holder, and 409 would wrongly
 * suggest someone used it. Only the newest e-mail's token works.
 */
const openInvite = async ({ table, clock }: Runtime, raw: string): Promise<{ token: InviteToken; invite: Invite }> => {
  const token = parseInviteToken(raw);
  const invite = token && (await getInviteByToken(table, token));
  if (!token || !invite) throw new NotFoundError('Invitation not found', ['token: no invitation matches this token']);
  if (invite.acceptedAt) {
    throw new ConflictError('This invitation has already been used', [`token: accepted at ${invite.acceptedAt}`]);
  }
  if (invite.supersededAt) {
    throw new NotFoundError('This invitation was replaced by a newer one', [
      'token: a newer invitation was sent to this address; use the latest e-mail',
    ]);
  }
  if (invite.expiresAt <= clock.now().toISOString()) {
    throw new BadRequestError('This invitation has expired; ask for a new one', [`token: expired at ${invite.expiresAt}`]);
  }
  return { token, invite };
};

export const decodeInvite = async (runtime: Runtime, raw: string) => {
  const { invite } = await openInvite(runtime, raw);
  const workspace = await getWorkspace(runtime.table, invite.workspaceId);
  if (!workspace) throw new NotFoundError('Invitation not found', ['token: the workspace no longer exists']);
  return { email: invite.email, role: invite.role, businessName: workspace.businessName, expiresAt: invite.expiresAt };
};

const NEW_ACCOUNT_FIELDS = ['password', 'firstName', 'lastName'] as const;

const newAccount = async ({ table, ids }: Runtime, invite: Invite, input: AcceptInviteInput, now: string): Promise<Account> => {
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
  new ConflictError('This account already belongs to a workspace', [`email: ${email} is a member of another workspace`]);

/**
 * The invited address's account, linked to the workspace, or created in it. An account already in this
 * workspace is the leftover of an accept that stopped before marking the invitation, so it is taken as is.
 */
const linkOrCreateAccount = async (runtime: Runtime, invite: Invite, input: AcceptInviteInput, now: string): Promise<Account> => {
  const { table } = runtime;
  const existing = await findAccountByEmail(table, invite.email);
  if (!existing) return newAccount(runtime, invite, input, now);
  if (existing.businessId === invite.workspaceId) return existing;
  if (existing.businessId) throw alreadyInWorkspace(invite.email);
  let joined: Account;
  try {
    joined = await joinWorkspace(table, existing.id, invite.workspaceId, [invite.role], now);
  } catch (error) {
    if (error instanceof AlreadyInWorkspaceError) throw alreadyInWorkspace(invite.email);
    throw error;
  }
  return joined.isVerified ? joined : updateAccount(table, joined.id, { isVerified: true }, now);
};

/**
 * Accepts in the order of docs/data-model.md 5.2: the account, the member, then the invitation marked
 * accepted under a condition. Each earlier step is idempotent, so a retry after a crash completes it.
 */
export const acceptInvite = async (runtime: Runtime, input: AcceptInviteInput) => {
  const { token, invite } = await openInvite(runtime, input.token);
  const now = runtime.clock.now().toISOString();
  const account = await linkOrCreateAccount(runtime, invite, input, now);
  if (!(await getMember(runtime.table, invite.workspaceId, account.id))) {
    await putMember(runtime.table, invite.workspaceId, {
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
  if (!(await markInviteAccepted(runtime.table, token, now))) {
    throw new ConflictError('This invitation has already been used');
  }
  return { user: toUser(account), businessId: invite.workspaceId, role: invite.role };
};
