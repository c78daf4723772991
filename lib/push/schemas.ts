import * as z from 'zod/mini';
import '#lib/contract/zod-locale.ts';

/** base64url (padding allowed, as some browsers write it) decoding to exactly `bytes` bytes. */
const base64urlKey = (bytes: number, what: string) =>
  z
    .string()
    .check(
      z.refine(
        (value) => /^[A-Za-z0-9_-]+={0,2}$/.test(value) && Buffer.from(value, 'base64url').length === bytes,
        `must be ${what}, base64url (${bytes} bytes)`,
      ),
    );

/** The browser's `PushSubscription.toJSON()`, as `pushManager.subscribe` answers it. */
export const pushSubscriptionBody = z.object({
  endpoint: z.url({ error: 'must be an absolute URL' }).check(z.maxLength(2000)),
  expirationTime: z.optional(z.nullable(z.number())),
  keys: z.object({
    p256dh: base64urlKey(65, 'an uncompressed P-256 public key'),
    auth: base64urlKey(16, 'the authentication secret'),
  }),
});

export const pushSubscriptionParams = z.object({
  id: z.string().check(z.regex(/^[a-f0-9]{32}$/, 'must be a subscription id')),
});

export const vapidPublicKeySchema = z.object({
  publicKey: z
    .string()
    .check(z.describe("The VAPID public key, base64url: `pushManager.subscribe`'s applicationServerKey")),
});

export const pushSubscriptionSchema = z.object({
  id: z.string(),
  endpointHost: z.string().check(z.describe("The push service's host; the whole endpoint is never answered")),
  createdAt: z.string(),
});
