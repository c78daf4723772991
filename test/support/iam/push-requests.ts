import { chatSignatureHeaders } from '#lib/integrations/chat/chat-signature.ts';
import { byAdmin, expectOk, V1, type RequestContext, type RouteRequests } from './request-helpers.ts';

/** The chat app's signing secret `integrations.registerChatWebhook` registers, which its presses are signed with. */
export const CHAT_SIGNING_SECRET = 'least-privilege-chat-signing-secret';

/** The admin's chat user presses Acknowledge on a new incident, as the chat app posts it, signed. */
const chatPress = async ({ client, admin, integrations }: RequestContext) => {
  expectOk(
    await client.request('PUT', `${V1}/integrations/chat/users/ULP`, { memberId: admin.user.id }, admin.auth),
    'chat user linked',
  );
  const incident = expectOk(
    await client.request('POST', `${V1}/incident-ticket`, { summary: 'Pressed in chat', priority: 'LOW' }, admin.auth),
    'incident',
  ).body.data;
  const payload = {
    type: 'block_actions',
    user: { id: 'ULP' },
    response_url: integrations.webhookUrl('lp-reply'),
    actions: [{ action_id: 'acknowledge', value: incident.id, action_ts: `${Date.now()}.1` }],
  };
  const body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
  const workspace = encodeURIComponent(admin.user.businessId as string);
  const pressed = await client.request('POST', `${V1}/integrations/chat/interactions?workspace=${workspace}`, body, {
    'content-type': 'application/x-www-form-urlencoded',
    ...chatSignatureHeaders(CHAT_SIGNING_SECRET, body, new Date()),
  });
  // Only a press that acts sends what the grant is judged on (the notifications queue, metrics).
  if (pressed.body?.data?.outcome !== 'ACKNOWLEDGED') throw new Error(`chat press: ${pressed.text}`);
  return pressed;
};

/** A subscription of the local push service stand-in (infra/local/push-service-stand-in.ts). */
const standInDevice = async ({ client }: RequestContext) =>
  expectOk(await client.request('POST', '/_local/push/subscriptions'), 'stand-in subscription').body.data;

/**
 * Issue 46's routes (push, and the chat buttons), kept apart so the lead can move them. The admin's device stays subscribed, so the page of
 * `integrations.listIncidentNotifications` (the admin on call) reaches it and exercises the worker's VAPID grant;
 * the one turned off is a second device.
 */
export const PUSH_REQUESTS: Record<string, RouteRequests> = {
  'integrations.chatInteraction': chatPress,
  'integrations.linkChatUser': ({ client, admin }) =>
    client.request('PUT', `${V1}/integrations/chat/users/ULP2`, { memberId: admin.user.id }, admin.auth),
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
