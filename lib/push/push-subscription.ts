/**
 * One browser's Web Push subscription of a member (docs/console.md, "Push notifications"): where the push
 * service takes messages for it and the keys the browser decrypts them with (RFC 8291). A member may
 * subscribe several devices; each is paged.
 */
export interface PushSubscription {
  /** Derived from the endpoint, so the same browser subscribing again replaces its subscription. */
  id: string;
  userId: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  createdAt: string;
}

/** What the API answers of a subscription: the endpoint is the device's address, kept to the push service's host. */
export interface PushSubscriptionView {
  id: string;
  endpointHost: string;
  createdAt: string;
}

/** Enough for a member's phone, tablet, laptops and desktops; more is likely forgotten browsers. */
export const MAX_SUBSCRIPTIONS_PER_MEMBER = 10;

export const viewOf = ({ id, endpoint, createdAt }: PushSubscription): PushSubscriptionView => ({
  id,
  endpointHost: new URL(endpoint).host,
  createdAt,
});
