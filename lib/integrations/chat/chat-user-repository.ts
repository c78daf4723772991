import { putIfAbsent, putItem } from '#lib/store/conditional-writes.ts';
import { getItem } from '#lib/store/items.ts';
import { assertOfWorkspace } from '#lib/store/item-values.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import type { Table } from '#lib/store/table.ts';

/** A chat user linked to a member: whom their button presses act as. */
export interface ChatUserLink {
  chatUserId: string;
  memberId: string;
  linkedBy: string;
  linkedAt: string;
}

/** How long a press is remembered: far beyond any retry of the chat provider (it retries within minutes). */
const PRESS_MEMORY_SECONDS = 24 * 60 * 60;

/** CHATUSER items `{W}#CHATUSER` / `<chatUserId>`, and CHATACT items `{W}#CHATACT` / `<user>#<action_ts>`. */
export const chatUserRepository = (table: Table, workspaceId: string) => {
  const linkKey = (chatUserId: string) => ({ pk: workspaceKey(workspaceId, 'CHATUSER'), sk: chatUserId });

  const putLink = (link: ChatUserLink): Promise<void> =>
    putItem(table, { ...linkKey(link.chatUserId), type: 'CHAT_USER', workspaceId, ...link });

  const findLink = async (chatUserId: string): Promise<ChatUserLink | undefined> => {
    const item = await getItem(table, linkKey(chatUserId));
    if (!item) return undefined;
    assertOfWorkspace(item, workspaceId, `chat user ${chatUserId}`);
    return {
      chatUserId,
      memberId: item.memberId as string,
      linkedBy: item.linkedBy as string,
      linkedAt: item.linkedAt as string,
    };
  };

  /** False when this press was acted on before: the conditional put is what makes a retried interaction act once. */
  const markPressHandled = (pressId: string, at: Date): Promise<boolean> =>
    putIfAbsent(table, {
      pk: workspaceKey(workspaceId, 'CHATACT'),
      sk: pressId,
      type: 'CHAT_PRESS',
      workspaceId,
      at: at.toISOString(),
      ttl: Math.floor(at.getTime() / 1000) + PRESS_MEMORY_SECONDS,
    });

  return { putLink, findLink, markPressHandled };
};
