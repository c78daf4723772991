import { UnauthorizedError } from '#lib/contract/errors.ts';
import { clockInWords } from '#lib/contract/time-words.ts';
import { chatText } from '#lib/escaping/chat.ts';
import type { AccountScope, Scope } from '#lib/identity/scope.ts';
import { log } from '#lib/log/logger.ts';
import { workspaceRepository } from '#lib/workspaces/workspace-repository.ts';
import { memberName } from '#lib/workspaces/member-name.ts';
import { workspaceTimezone } from '#lib/workspaces/workspace-timezone.ts';
import { chatSigningSecret, postToChatWebhook, type ChatMessage } from '../chat-webhook.ts';
import { actOnPress, type PressOutcome } from './chat-press-actions.ts';
import { chatPressOf, type ChatPress } from './chat-interaction-payload.ts';
import { hasChatSignature } from './chat-signature.ts';
import { CHAT_LINK_LIFETIME_MS, signChatLink } from './chat-link-token.ts';
import { chatUserRepository } from './chat-user-repository.ts';

export interface ChatInteraction {
  /** From the request URL's query: whose signing secret to verify with, trusted only once that holds. */
  workspaceId: string;
  rawBody: string;
  headers: Record<string, string>;
  /** The API's URL as the chat provider reached it: the console's pages are served at its root. */
  baseUrl: string;
}

/** What the press did: what the reply said, for the caller (the provider ignores the body) and the tests. */
export interface InteractionAnswer {
  outcome: PressOutcome | 'NOT_LINKED' | 'REFUSED' | 'ALREADY_HANDLED';
  text: string;
}

/** Sends the reply; the provider's refusal is logged, never the presser's problem (the action stands). */
const reply = async (scope: Scope, press: ChatPress, message: ChatMessage): Promise<void> => {
  if (!press.responseUrl) return;
  const refused = await postToChatWebhook(scope.ports.network, press.responseUrl, message);
  if (refused) log.info('chat reply not delivered', { reason: refused });
};

const privately = (text: string): ChatMessage => ({ text, response_type: 'ephemeral', replace_original: false });

/** The message the button sat in, with who did what below it; its buttons go once the incident is resolved. */
const inPlace = (press: ChatPress, text: string, resolved: boolean): ChatMessage => ({
  text,
  replace_original: true,
  blocks: [
    ...press.blocks.filter((block) => !(resolved && (block as { type?: unknown }).type === 'actions')),
    { type: 'context', elements: [{ type: 'mrkdwn', text: chatText(text) }] },
  ],
});

/**
 * A press of a chat page's button (docs/integrations.md, "Buttons in chat"): verified with the signing secret of
 * the workspace the request URL names (a wrong or stale signature, or a workspace without a secret, is a 401 that
 * changes nothing), acted on once per press id, as the member the chat user is linked to, with that member's
 * role. An unlinked user, or a member whose role may not act, is answered privately and nothing changes.
 */
export const handleChatInteraction = async (
  account: AccountScope,
  interaction: ChatInteraction,
): Promise<InteractionAnswer> => {
  const { ports } = account;
  const { workspaceId } = interaction;
  const secret = await chatSigningSecret(ports, workspaceId);
  const signed =
    secret !== undefined &&
    hasChatSignature(
      secret,
      {
        timestamp: interaction.headers['x-slack-request-timestamp'],
        signature: interaction.headers['x-slack-signature'],
        rawBody: interaction.rawBody,
      },
      ports.clock.now(),
    );
  if (!signed) {
    throw new UnauthorizedError('The interaction is not signed by this workspace’s chat app', [
      'x-slack-signature: missing, wrong, or older than 5 minutes',
    ]);
  }
  const scope: Scope = { ...account, workspaceId };
  // Slack posts a press form-encoded, its JSON in `payload`.
  const press = chatPressOf(new URLSearchParams(interaction.rawBody).get('payload') ?? '');
  const users = chatUserRepository(ports.table, workspaceId);
  const link = await users.findLink(press.chatUserId);
  if (!link) {
    const token = await signChatLink(ports.signingKeys, {
      workspaceId,
      chatUserId: press.chatUserId,
      expiresAt: new Date(ports.clock.now().getTime() + CHAT_LINK_LIFETIME_MS).toISOString(),
    });
    const url = `${interaction.baseUrl}/link-chat?user=${encodeURIComponent(press.chatUserId)}&token=${token}`;
    const text = `Your chat account is not linked to a member yet, so nothing was done. Link it (signed in to the console): ${url}`;
    await reply(scope, press, privately(text));
    return { outcome: 'NOT_LINKED', text };
  }
  const member = await workspaceRepository(ports.table, workspaceId).getMember(link.memberId);
  if (!member || member.role === 'VIEWER') {
    const text = `Your role (${member?.role ?? 'no longer a member'}) may not ${press.action} incidents, so nothing was done.`;
    await reply(scope, press, privately(text));
    return { outcome: 'REFUSED', text };
  }
  if (!(await users.markPressHandled(press.pressId, ports.clock.now()))) {
    return { outcome: 'ALREADY_HANDLED', text: 'This press was acted on already.' };
  }
  const memberScope: Scope = {
    ...scope,
    caller: { kind: 'user', userId: member.id, email: member.email, workspaceId, roles: [member.role] },
    actor: member.email,
  };
  const result = await actOnPress(memberScope, press);
  const name = memberName(member);
  const at = clockInWords(ports.clock.now().toISOString(), await workspaceTimezone(scope));
  const text = result.done ? `${result.words} by ${name} at ${at}.` : `${name}: ${result.words}`;
  await reply(scope, press, result.done ? inPlace(press, text, result.outcome === 'RESOLVED') : privately(text));
  return { outcome: result.outcome, text };
};
