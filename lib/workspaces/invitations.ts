import { findAccountByEmail } from '#lib/accounts/account-repository.ts';
import { BadRequestError, ConflictError, NotFoundError } from '#lib/contract/errors.ts';
import type { MailMessage } from '#lib/ports/mail/mail.ts';
import { mailBodyLine, mailSubject } from '#lib/escaping/mail.ts';
import { sendOrAskAgain } from '#lib/ports/mail/send-or-ask-again.ts';
import type { Invite } from './invite-repository.ts';
import { getInviteByToken, putInvite, inviteRepository } from './invite-repository.ts';
import { formatInviteToken, parseInviteToken, type InviteToken } from './invite-token.ts';
import type { SendInviteInput } from './schemas.ts';
import type { Workspace } from './workspace.ts';
import { workspaceRepository } from './workspace-repository.ts';
import type { AccountScope, Scope } from '#lib/identity/scope.ts';
import { userOf } from '#lib/identity/caller.ts';
import { clockInWords } from '#lib/contract/time-words.ts';

/** Invitations expire after 7 days (spec, Limits). */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The expiry on the workspace's clock, the zone it was registered with (UTC unless it named one). */
const invitationMail = (appUrl: string, workspace: Workspace, invite: Invite, token: string): MailMessage => ({
  to: invite.email,
  subject: mailSubject(`You are invited to join ${workspace.businessName}`),
  text: [
    `You have been invited to join ${mailBodyLine(workspace.businessName)} as ${invite.role}.`,
    `Accept the invitation: ${appUrl}/accept-invite?token=${encodeURIComponent(token)}`,
    `The invitation expires at ${clockInWords(invite.expiresAt, workspace.timezone ?? 'UTC')}. If you did not expect it, ignore this e-mail.`,
  ].join('\n\n'),
  token,
});

export const sendInvite = async (
  { ports: { table, clock, ids, mail }, workspaceId, caller }: Scope,
  input: SendInviteInput,
) => {
  const workspaces = workspaceRepository(table, workspaceId);
  const inviterId = userOf(caller).userId;
  const workspace = await workspaces.getWorkspace();
  if (!workspace) throw new NotFoundError('Workspace not found');
  const account = await findAccountByEmail(table, input.email);
  if (account && (await workspaces.getMember(account.id))) {
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
  await inviteRepository(table, workspaceId).supersedePendingInvites(invite.email, createdAt);
  await putInvite(table, invite, token);
  await sendOrAskAgain(mail, invitationMail(mail.appUrl, workspace, invite, formatInviteToken(token)));
  return { inviteId: invite.id, email: invite.email, expiresAt: invite.expiresAt };
};

/**
 * The pending invitation a token names. A token replaced by a re-send answers 404, like an unknown one:
 * the re-send replaced that invitation, so it no longer exists for its holder, and 409 would wrongly
 * suggest someone used it. Only the newest e-mail's token works.
 */
export const openInvite = async (
  { ports: { table, clock } }: AccountScope,
  raw: string,
): Promise<{ token: InviteToken; invite: Invite }> => {
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
    throw new BadRequestError('This invitation has expired; ask for a new one', [
      `token: expired at ${invite.expiresAt}`,
    ]);
  }
  return { token, invite };
};

export const decodeInvite = async (scope: AccountScope, raw: string) => {
  const { ports } = scope;
  const { invite } = await openInvite(scope, raw);
  const workspace = await workspaceRepository(ports.table, invite.workspaceId).getWorkspace();
  if (!workspace) throw new NotFoundError('Invitation not found', ['token: the workspace no longer exists']);
  return { email: invite.email, role: invite.role, businessName: workspace.businessName, expiresAt: invite.expiresAt };
};
