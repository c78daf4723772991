import { BadRequestError, ForbiddenError, NotFoundError } from '#lib/contract/errors.ts';
import { userOf } from '#lib/identity/caller.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { workspaceRepository } from '#lib/workspaces/workspace-repository.ts';
import { verifyChatLink } from './chat-link-token.ts';
import { type ChatUserLink, chatUserRepository } from './chat-user-repository.ts';

/**
 * Links a chat user to a member, whom that user's button presses then act as (docs/integrations.md). An ADMIN
 * links anyone; a member links only themselves, and only with the signed link their own press was answered with
 * (`linkToken`), which proves the chat app named that chat user: otherwise any member could take over another's
 * chat account (docs/decisions.md, "Linking a chat user").
 */
export const linkChatUser = async (
  scope: Scope,
  { chatUserId, memberId, linkToken }: { chatUserId: string; memberId: string; linkToken?: string | undefined },
): Promise<ChatUserLink> => {
  const { ports, workspaceId } = scope;
  const caller = userOf(scope.caller);
  const isAdmin = caller.roles.includes('ADMIN');
  if (!isAdmin) {
    if (memberId !== caller.userId) {
      throw new ForbiddenError('Only an ADMIN links a chat user to another member', ['memberId: must be your own id']);
    }
    const claim =
      linkToken !== undefined
        ? await verifyChatLink(ports.signingKeys, linkToken, { workspaceId, now: ports.clock.now() })
        : undefined;
    if (claim?.chatUserId !== chatUserId) {
      throw new BadRequestError('Link your chat account with the link the chat answered your press with', [
        'linkToken: missing, expired, or not for this chat user',
      ]);
    }
  }
  const member = await workspaceRepository(ports.table, workspaceId).getMember(memberId);
  if (!member) throw new NotFoundError('Member not found', [`memberId: no member ${memberId} in this workspace`]);
  const link: ChatUserLink = {
    chatUserId,
    memberId,
    linkedBy: caller.email,
    linkedAt: ports.clock.now().toISOString(),
  };
  await chatUserRepository(ports.table, workspaceId).putLink(link);
  return link;
};
