import { createHmac, timingSafeEqual } from 'node:crypto';

/** How old a signed interaction may be: Slack's own advice, which keeps a captured request from being replayed. */
const REPLAY_WINDOW_MS = 5 * 60 * 1000;

/** Slack's v0 signature of a request body sent at `timestamp` (seconds). */
const v0Signature = (secret: string, timestamp: string, rawBody: string): string =>
  `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;

/**
 * Whether a chat interaction carries the chat app's signature (Slack's v0 scheme: `X-Slack-Signature` is `v0=`
 * and the hex HMAC-SHA256, keyed by the signing secret, of `v0:<X-Slack-Request-Timestamp>:<raw body>`), made
 * within the replay window either side of `now`. Compared in constant time.
 */
export const hasChatSignature = (
  secret: string,
  { timestamp, signature, rawBody }: { timestamp: string | undefined; signature: string | undefined; rawBody: string },
  now: Date,
): boolean => {
  if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(now.getTime() - Number(timestamp) * 1000) > REPLAY_WINDOW_MS) return false;
  const expected = Buffer.from(v0Signature(secret, timestamp, rawBody), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
};

/** The headers a chat app sends with an interaction: what the local stand-in and the tests sign with. */
export const chatSignatureHeaders = (secret: string, rawBody: string, at: Date): Record<string, string> => {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  return { 'x-slack-request-timestamp': timestamp, 'x-slack-signature': v0Signature(secret, timestamp, rawBody) };
};
