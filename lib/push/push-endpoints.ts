import type { Network } from '#lib/ports/network/network.ts';
import { type CheckedUrl, OutboundUrlRefusedError, checkOutboundUrl } from '#lib/ports/network/outbound-url.ts';

/**
 * The push services browsers subscribe at (docs/decisions.md, "Web Push"): Chrome, Edge's Chromium and
 * Android's browsers use FCM; Firefox uses Mozilla's autopush; Safari on macOS and iOS uses Apple's web push
 * service; legacy Edge uses WNS. A subscription's endpoint is a URL the browser hands us, so it is held to
 * these hosts: nothing else is ever posted to, whatever a member's browser (or someone with their token) says.
 */
const PUSH_SERVICE_HOSTS: readonly RegExp[] = [
  /^fcm\.googleapis\.com$/,
  /^updates\.push\.services\.mozilla\.com$/,
  /^(?:[a-z0-9-]+\.)*push\.apple\.com$/,
  /^(?:[a-z0-9-]+\.)*notify\.windows\.com$/,
];

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A push endpoint through the outbound guard: https on a push service's host (on the local stack, also plain
 * http on the loopback, where the push service stand-in listens), resolving to public addresses only.
 */
export const checkPushEndpoint = async (network: Network, endpoint: string): Promise<CheckedUrl> => {
  let host: string;
  try {
    host = new URL(endpoint).hostname.toLowerCase();
  } catch {
    throw new OutboundUrlRefusedError('must be an absolute URL');
  }
  const standIn = network.allowLoopbackHttp && LOOPBACK_HOSTS.has(host);
  if (!standIn && !PUSH_SERVICE_HOSTS.some((pattern) => pattern.test(host))) {
    throw new OutboundUrlRefusedError(`must be a push service's endpoint (${host} is none)`);
  }
  return checkOutboundUrl(network, endpoint);
};
