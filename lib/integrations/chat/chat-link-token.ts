import { signPayload, verifyPayload } from '#lib/identity/signed-payload.ts';
import type { SigningKeys } from '#lib/ports/signing-keys/signing-keys.ts';

/** How long the link an unlinked chat user is answered with works: long enough to sign in to the console first. */
export const CHAT_LINK_LIFETIME_MS = 60 * 60 * 1000;

const PURPOSE = 'chat-user-link';

/** What the link proves: that the chat app, in this workspace, named this chat user (docs/integrations.md). */
export interface ChatLinkClaim {
  workspaceId: string;
  chatUserId: string;
  expiresAt: string;
}

export const signChatLink = (keys: SigningKeys, claim: ChatLinkClaim): Promise<string> =>
  signPayload(keys, PURPOSE, { w: claim.workspaceId, c: claim.chatUserId, x: claim.expiresAt });

/** The claim if the token is one this service signed, for this workspace and not expired; undefined otherwise. */
export const verifyChatLink = async (
  keys: SigningKeys,
  token: string,
  { workspaceId, now }: { workspaceId: string; now: Date },
): Promise<ChatLinkClaim | undefined> => {
  const value = (await verifyPayload(keys, PURPOSE, token)) as Record<string, unknown> | undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  const { w, c, x } = value;
  if (typeof w !== 'string' || typeof c !== 'string' || typeof x !== 'string') return undefined;
  if (w !== workspaceId || !(Date.parse(x) > now.getTime())) return undefined;
  return { workspaceId: w, chatUserId: c, expiresAt: x };
};
