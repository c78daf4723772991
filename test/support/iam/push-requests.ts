import { byAdmin, expectOk, V1, type RequestContext, type RouteRequests } from './request-helpers.ts';

/** A subscription of the local push service stand-in (infra/local/push-service-stand-in.ts). */
const standInDevice = async ({ client }: RequestContext) =>
  expectOk(await client.request('POST', '/_local/push/subscriptions'), 'stand-in subscription').body.data;

/**
 * Issue 46's routes, kept apart so the lead can move them. The admin's device stays subscribed, so the page of
 * `integrations.listIncidentNotifications` (the admin on call) reaches it and exercises the worker's VAPID grant;
 * the one turned off is a second device.
 */
export const PUSH_REQUESTS: Record<string, RouteRequests> = {
  'integrations.vapidPublicKey': byAdmin('GET', '/push/vapid-public-key'),
  'integrations.subscribePush': async (context) =>
    byAdmin('POST', '/push/subscriptions', await standInDevice(context))(context),
  'integrations.unsubscribePush': async (context) => {
    const { client, admin } = context;
    const device = await standInDevice(context);
    const subscribed = expectOk(await client.request('POST', `${V1}/push/subscriptions`, device, admin.auth), 'second');
    return client.request('DELETE', `${V1}/push/subscriptions/${subscribed.body.data.id}`, undefined, admin.auth);
  },
};
