import type { Scope } from '#lib/identity/scope.ts';
import type { PushPayload } from '#lib/push/push-payload.ts';
import { pushSubscriptionRepository } from '#lib/push/push-subscription-repository.ts';
import { sendPush } from '#lib/push/send-push.ts';
import type { NotificationContent } from './notification-messages.ts';
import { RecipientGoneError, type PageSend } from './page-send.ts';

/** A lock screen shows two lines or so: the rest is one tap away. */
const BODY_LIMIT = 400;

const cut = (text: string, limit: number): string => (text.length > limit ? `${text.slice(0, limit - 1)}…` : text);

/**
 * What the service worker shows (console/service-worker.ts): the headline, then what is broken and since when,
 * with "Acknowledge" (while the incident is OPEN: a POST to this member's one-click link, no console needed)
 * and "Open". Plain text: a notification renders no markup.
 */
const pushMessage = (content: NotificationContent): PushPayload => ({
  title: cut(content.headline, 200),
  body: cut(
    content.details.filter((line) => /^(What is broken|Details|Since|Service|Alerts):/.test(line)).join('\n'),
    BODY_LIMIT,
  ),
  incidentId: content.incidentId,
  tag: `incident-${content.incidentId}`,
  url: content.link,
  ...(content.ackUrl && { ackUrl: content.ackUrl }),
  actions: [
    ...(content.ackUrl ? [{ action: 'acknowledge' as const, title: 'Acknowledge' }] : []),
    { action: 'open', title: 'Open' },
  ],
});

/**
 * A page to each device the paged members subscribed (channel `PUSH`, one delivery per device). A device the
 * push service no longer knows (404/410) is removed and its delivery recorded FAILED with that reason, not retried.
 */
export const pushSends = async (
  scope: Scope,
  members: readonly { email: string; userId: string }[],
): Promise<PageSend[]> => {
  const { ports, workspaceId } = scope;
  const subscriptions = pushSubscriptionRepository(ports.table, workspaceId);
  const devices = await Promise.all(members.map(({ userId }) => subscriptions.listMemberSubscriptions(userId)));
  return members.flatMap((member, index) =>
    (devices[index] ?? []).map((subscription) => ({
      channel: 'PUSH' as const,
      recipient: `${member.email} on ${new URL(subscription.endpoint).host} (${subscription.id.slice(0, 8)})`,
      ackAs: { by: member.email, userId: member.userId },
      send: async (content: NotificationContent) => {
        const outcome = await sendPush(ports, subscription, pushMessage(content));
        if (outcome === 'GONE') {
          await subscriptions.deleteSubscription(member.userId, subscription.id);
          throw new RecipientGoneError(
            'the push service no longer knows this device (404/410): its subscription was removed',
          );
        }
      },
    })),
  );
};
