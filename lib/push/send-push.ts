import type { Ports } from '#lib/ports/ports.ts';
import { log } from '#lib/log/logger.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { pinnedFetch } from '#lib/ports/network/outbound-url.ts';
import { PROVIDER_TIMEOUT_MS } from '#lib/integrations/provider-http.ts';
import { checkPushEndpoint } from './push-endpoints.ts';
import type { PushSubscription } from './push-subscription.ts';

/**
 * web-push (RFC 8291's aes128gcm and RFC 8292's VAPID JWT) loads with the first push a worker sends, so no cold
 * start carries it, not even the notification worker's when nobody turned push on.
 */
const webPush = onFirstUse(async () => (await import('web-push')).default);

/** A page waits in the push service this long for a phone that is off; past it the next escalation speaks. */
const PAGE_TTL_SECONDS = 60 * 60;

/**
 * The VAPID `sub` claim, the contact push services reach the sender at: the console's https address; on the
 * local stack, whose address is plain http (which web-push and Apple refuse), a mailto of its host.
 */
const vapidSubject = (appUrl: string): string =>
  appUrl.startsWith('https:') ? appUrl : `mailto:push@${new URL(appUrl).hostname}`;

/** What a push answered: delivered to the push service, or gone (the browser unsubscribed or the endpoint expired). */
export type PushOutcome = 'SENT' | 'GONE';

/**
 * Encrypts `payload` for the subscription and POSTs it to its push service, signed with the deployment's VAPID
 * keys, through the outbound guard (push services only) to the address the guard approved. 404 and 410 mean the
 * subscription is gone; any other refusal or silence throws, and the delivery is recorded FAILED and tried again.
 */
export const sendPush = async (
  ports: Pick<Ports, 'network' | 'pushKeys' | 'mail'>,
  subscription: PushSubscription,
  payload: unknown,
): Promise<PushOutcome> => {
  const checked = await checkPushEndpoint(ports.network, subscription.endpoint);
  const [{ generateRequestDetails }, keys] = await Promise.all([webPush(), ports.pushKeys.vapidKeys()]);
  const request = generateRequestDetails(
    { endpoint: subscription.endpoint, keys: subscription.keys },
    JSON.stringify(payload),
    {
      vapidDetails: {
        subject: vapidSubject(ports.mail.appUrl),
        publicKey: keys.publicKey,
        privateKey: keys.privateKey,
      },
      contentEncoding: 'aes128gcm',
      TTL: PAGE_TTL_SECONDS,
      urgency: 'high',
    },
  );
  let response: Response;
  try {
    response = await pinnedFetch(checked)(request.endpoint, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      ...(request.body && { body: new Uint8Array(request.body) }),
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
  } catch (error) {
    log.info('push service did not answer', { pushHost: checked.url.host, reason: (error as Error).message });
    throw new Error(`the push service ${checked.url.host} did not answer`);
  }
  await response.body?.cancel();
  if (response.status === 404 || response.status === 410) return 'GONE';
  if (!response.ok) throw new Error(`the push service ${checked.url.host} answered ${response.status}`);
  return 'SENT';
};
