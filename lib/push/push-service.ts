import { createHash } from 'node:crypto';
import { BadRequestError, ConflictError, NotFoundError } from '#lib/contract/errors.ts';
import { userOf } from '#lib/identity/caller.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { OutboundUrlRefusedError } from '#lib/ports/network/outbound-url.ts';
import { checkPushEndpoint } from './push-endpoints.ts';
import {
  MAX_SUBSCRIPTIONS_PER_MEMBER,
  type PushSubscription,
  type PushSubscriptionView,
  viewOf,
} from './push-subscription.ts';
import { pushSubscriptionRepository } from './push-subscription-repository.ts';

/** The key browsers subscribe with: the same for every workspace of the deployment. */
export const vapidPublicKey = async ({ ports }: Scope): Promise<{ publicKey: string }> => ({
  publicKey: (await ports.pushKeys.vapidKeys()).publicKey,
});

const subscriptionIdOf = (endpoint: string): string => createHash('sha256').update(endpoint).digest('hex').slice(0, 32);

/**
 * Turns push on for the caller's browser: its endpoint must be a push service's (the outbound guard, else a
 * 400 naming `endpoint`). The same browser subscribing again replaces its subscription; a member's eleventh
 * device is a 409.
 */
export const subscribePush = async (
  scope: Scope,
  body: { endpoint: string; keys: PushSubscription['keys'] },
): Promise<PushSubscriptionView> => {
  const { ports, workspaceId } = scope;
  const { userId } = userOf(scope.caller);
  try {
    await checkPushEndpoint(ports.network, body.endpoint);
  } catch (error) {
    if (error instanceof OutboundUrlRefusedError) {
      throw new BadRequestError('This is not a push service endpoint', [`endpoint: ${error.message}`]);
    }
    throw error;
  }
  const subscriptions = pushSubscriptionRepository(ports.table, workspaceId);
  const id = subscriptionIdOf(body.endpoint);
  const existing = await subscriptions.listMemberSubscriptions(userId);
  const known = existing.some((subscription) => subscription.id === id);
  if (!known && existing.length >= MAX_SUBSCRIPTIONS_PER_MEMBER) {
    throw new ConflictError(`At most ${MAX_SUBSCRIPTIONS_PER_MEMBER} devices receive push notifications`, [
      'endpoint: turn push off on a device you no longer use first',
    ]);
  }
  const subscription: PushSubscription = {
    id,
    userId,
    endpoint: body.endpoint,
    keys: { p256dh: body.keys.p256dh.replace(/=+$/, ''), auth: body.keys.auth.replace(/=+$/, '') },
    createdAt: ports.clock.now().toISOString(),
  };
  await subscriptions.putSubscription(subscription);
  return viewOf(subscription);
};

/** Turns push off for one of the caller's devices; another member's or an unknown id is a 404. */
export const unsubscribePush = async (scope: Scope, id: string): Promise<{ id: string }> => {
  const { ports, workspaceId } = scope;
  const { userId } = userOf(scope.caller);
  const removed = await pushSubscriptionRepository(ports.table, workspaceId).deleteSubscription(userId, id);
  if (!removed) throw new NotFoundError('Push subscription not found', [`id: none of your devices has ${id}`]);
  return { id };
};
