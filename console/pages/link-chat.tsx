import { api, type User } from '../api.ts';
import { navigate } from '../router.ts';
import { ErrorNote, useAction } from '../ui.tsx';

/**
 * The link a chat app answers an unlinked user's button press with (`/link-chat?user=&token=`), opened signed in:
 * links that chat user to the member signed in, whose role their presses then act with (docs/integrations.md).
 */
export const LinkChatPage = ({ user, chatUserId, token }: { user: User; chatUserId: string; token: string }) => {
  const action = useAction();
  if (!chatUserId || !token) return <main class="narrow">This link names no chat user.</main>;
  const link = () =>
    void action.run(async () => {
      await api('PUT', `/integrations/chat/users/${encodeURIComponent(chatUserId)}`, {
        memberId: user.id,
        linkToken: token,
      });
      navigate('/incidents', { replace: true });
    });
  return (
    <main class="narrow">
      <h1>Link your chat account</h1>
      <p>The buttons you press in the chat will act as you, {user.email}, with your role in this workspace.</p>
      {action.error && <ErrorNote error={action.error} />}
      <button type="button" class="primary" disabled={action.busy} onClick={link}>
        Link chat account {chatUserId}
      </button>
    </main>
  );
};
