import { CHAT_SIGNING_SECRET } from './push-requests.ts';
import { onCallFromNow } from '../on-call.ts';
import type { HttpReply } from '../local-stack.ts';
import {
  V1,
  byAdmin,
  byKey,
  creating,
  expectOk,
  withIds,
  type RequestContext,
  type RouteRequests,
} from './request-helpers.ts';

const PHONE = '+14155550199';

const CONNECTS = {
  chat: ['/integrations/chat/connect', '/integrations/chat/oauth/callback'],
  'codehost-a': ['/integrations/codehost-a/connect', '/integrations/codehost-a/callbacks/codehost-a'],
  'codehost-b': ['/integrations/codehost-b/connect', '/integrations/codehost-b/callback'],
  videomeet: ['/integrations/videomeet/connect', '/integrations/videomeet/oauth/callback'],
} as const;

/** Starts the connection and keeps the state for the callback request. */
const connecting =
  (kind: keyof typeof CONNECTS): RouteRequests =>
  async ({ client, admin, ids }) => {
    const reply = expectOk(await client.request('POST', `${V1}${CONNECTS[kind][0]}`, undefined, admin.auth), 'connect');
    ids[`${kind}State`] = new URL(reply.body.data.authUrl).searchParams.get('state') ?? '';
    return reply;
  };

const callingBack =
  (kind: keyof typeof CONNECTS): RouteRequests =>
  ({ client, admin, ids }) =>
    client.request(
      'GET',
      `${V1}${CONNECTS[kind][1]}?code=least-privilege&state=${encodeURIComponent(ids[`${kind}State`] ?? '')}`,
      undefined,
      admin.auth,
    );

/**
 * The admin on call today with SMS connected, and an incident opened afterwards: its notifications reach
 * the chat webhook, the mail outbox, SMS and the video tool, which exercises the notification worker's grants.
 */
const notifiedIncident = async (context: RequestContext): Promise<HttpReply[]> => {
  const { client, admin } = context;
  await onCallFromNow(client, admin, admin.user.id);
  await creating(context, 'notified', '/incident-ticket', { summary: 'Payments failing', priority: 'CRITICAL' });
  return [await withIds('GET', ({ notified }) => `/incident-ticket/${notified}/notifications`)(context)];
};

/** `<group>.<route key>` of the integrations group. */
export const INTEGRATION_REQUESTS: Record<string, RouteRequests> = {
  'integrations.connectChat': connecting('chat'),
  'integrations.chatOAuthCallback': callingBack('chat'),
  'integrations.registerChatWebhook': ({ client, admin, integrations }) =>
    client.request(
      'POST',
      `${V1}/integrations/chat/webhook`,
      { webhookUrl: integrations.webhookUrl('lp'), signingSecret: CHAT_SIGNING_SECRET },
      admin.auth,
    ),
  'integrations.connectCodehostA': connecting('codehost-a'),
  'integrations.codehostACallback': callingBack('codehost-a'),
  'integrations.registerCodehostAWebhook': byAdmin('POST', '/integrations/codehost-a/webhook', {
    repoFullName: 'acme/api',
  }),
  'integrations.listCodehostARepos': byKey('/integrations/codehost-a/repos'),
  'integrations.connectCodehostB': connecting('codehost-b'),
  'integrations.codehostBCallback': callingBack('codehost-b'),
  'integrations.registerCodehostBWebhook': async (context) => {
    // Refused by the host first: the ingestion key made for that hook is deleted again.
    const refused = await byAdmin('POST', '/integrations/codehost-b/webhook', { projectId: '404' })(context);
    if (refused.status !== 400) throw new Error(`a refused hook: expected 400, got ${refused.status} ${refused.text}`);
    return byAdmin('POST', '/integrations/codehost-b/webhook', { projectId: '7' })(context);
  },
  'integrations.listCodehostBProjects': byKey('/integrations/codehost-b/projects'),
  'integrations.connectVideomeet': connecting('videomeet'),
  'integrations.videomeetOAuthCallback': callingBack('videomeet'),
  'integrations.connectSms': byAdmin('POST', '/integrations/sms/connect', { phoneNumber: PHONE }),
  'integrations.connectMessagingApp': byAdmin('POST', '/integrations/messaging-app/connect', { phoneNumber: PHONE }),
  'integrations.listUserIntegrations': (context) => byKey(`/integrations/${context.admin.user.id}`)(context),
  'integrations.disconnectIntegration': (context) =>
    byAdmin('DELETE', `/integrations/${context.admin.user.id}/messaging-app`)(context),
  'integrations.listIncidentNotifications': notifiedIncident,
};
