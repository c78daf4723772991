import { randomBytes, randomUUID } from 'node:crypto';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { ok } from '#lib/http/envelope.ts';
import { errorResponse, resultResponse } from '#lib/http/response.ts';
import type { Clock } from '#lib/ports/clock.ts';
import { checkVapid, decryptPush, newReceiverKeys, type ReceiverKeys } from './push-decrypt.ts';

/** One push as the stand-in received it: its headers' meaning and the payload, decrypted. */
interface ReceivedPush {
  receivedAt: string;
  ttl: number;
  urgency: string | undefined;
  vapidKey: string;
  payload: unknown;
}

interface TestSubscription {
  keys: ReceiverKeys;
  received: ReceivedPush[];
}

const PATH = /^\/_local\/push\/endpoints\/([\w-]+)$/;

/**
 * A push service on the local server, standing in for FCM, autopush or Apple's (docs/running-locally.md):
 * `POST /_local/push/subscriptions` makes a test subscription and answers its `PushSubscription` JSON (the
 * stand-in keeps the browser's private keys); the service then POSTs pages to its endpoint, which checks the
 * VAPID signature, decrypts the aes128gcm body and keeps it; `GET` on the endpoint lists what arrived;
 * `DELETE` forgets the subscription, so later pushes get the 410 of an expired one.
 */
export const createPushServiceStandIn = (clock: Clock) => {
  const subscriptions = new Map<string, TestSubscription>();

  const subscribe = (host: string): APIGatewayProxyResult => {
    const id = randomUUID();
    const keys = newReceiverKeys(randomBytes(16));
    subscriptions.set(id, { keys, received: [] });
    return resultResponse(
      ok({
        endpoint: `http://${host}/_local/push/endpoints/${id}`,
        expirationTime: null,
        keys: { p256dh: keys.ecdh.getPublicKey().toString('base64url'), auth: keys.auth.toString('base64url') },
      }),
      randomUUID(),
    );
  };

  const receive = (
    subscription: TestSubscription,
    host: string,
    headers: Record<string, string | undefined>,
    body: Buffer,
  ): APIGatewayProxyResult => {
    const now = clock.now();
    const vapid = checkVapid(headers.authorization, `http://${host}`, Math.floor(now.getTime() / 1000));
    if ('refused' in vapid) return errorResponse(401, 'Unauthorized', [vapid.refused], randomUUID());
    if (headers['content-encoding'] !== 'aes128gcm') {
      return errorResponse(415, 'Unsupported content encoding', ['content-encoding: must be aes128gcm'], randomUUID());
    }
    let payload: unknown;
    try {
      payload = JSON.parse(decryptPush(body, subscription.keys));
    } catch (error) {
      return errorResponse(400, 'Undecryptable', [(error as Error).message], randomUUID());
    }
    subscription.received.push({
      receivedAt: now.toISOString(),
      ttl: Number(headers.ttl),
      urgency: headers.urgency,
      vapidKey: vapid.publicKey,
      payload,
    });
    return { statusCode: 201, headers: {}, body: '' };
  };

  /** The answer to a `/_local/push` request, or undefined for any other path. */
  const handle = (
    method: string,
    path: string,
    headers: Record<string, string | undefined>,
    body: Buffer,
  ): APIGatewayProxyResult | undefined => {
    const host = headers.host ?? 'localhost';
    if (method === 'POST' && path === '/_local/push/subscriptions') return subscribe(host);
    const id = PATH.exec(path)?.[1];
    if (!id) return undefined;
    const subscription = subscriptions.get(id);
    // What a push service answers for an endpoint the browser dropped or that expired.
    if (!subscription)
      return errorResponse(410, 'Gone', ['the subscription has expired or was unsubscribed'], randomUUID());
    if (method === 'POST') return receive(subscription, host, headers, body);
    if (method === 'GET') return resultResponse(ok(subscription.received), randomUUID());
    if (method === 'DELETE') {
      subscriptions.delete(id);
      return { statusCode: 204, headers: {}, body: '' };
    }
    return undefined;
  };

  return { handle };
};

export type PushServiceStandIn = ReturnType<typeof createPushServiceStandIn>;
