import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { OAuthIntegration } from '#lib/ports/integration-providers/integration-providers.ts';
import { integrations } from '#lib/routes/integrations.ts';

/** Services load on their route's first request, not at cold start (docs/performance.md, "Bundles and cold imports"). */
const oauth = onFirstUse(() => import('#lib/integrations/oauth-connections.ts'));
const codeHosts = onFirstUse(() => import('#lib/integrations/code-hosts.ts'));
const service = onFirstUse(() => import('#lib/integrations/integration-service.ts'));
const chatWebhookModule = onFirstUse(() => import('#lib/integrations/chat-webhook.ts'));
const notificationServiceModule = onFirstUse(() => import('#lib/notifications/notification-service.ts'));
const push = onFirstUse(() => import('#lib/push/push-service.ts'));
const chatInteractions = onFirstUse(() => import('#lib/integrations/chat/chat-interactions.ts'));
const chatUserLinks = onFirstUse(() => import('#lib/integrations/chat/chat-user-links.ts'));
const requestBaseUrl = onFirstUse(() => import('#lib/app/request-base-url.ts'));

const connect =
  (integration: OAuthIntegration) =>
  async ({ scope }: { scope: Scope }) =>
    ok(await (await oauth()).startOAuthConnect(scope, integration));

const callback =
  (integration: OAuthIntegration, message: string) =>
  async ({ scope, query }: { scope: Scope; query: { code: string; state: string } }) =>
    ok(await (await oauth()).completeOAuthConnect(scope, { integration, ...query }), { message });

/** A code host's webhook at its `target` (code host A's repository, code host B's project). */
const registerHook = async (
  scope: Scope,
  host: 'codehost-a' | 'codehost-b',
  { target, events }: { target: string; events: string[] },
) =>
  created(await (await codeHosts()).registerCodeHostHook(scope, { host, target, events }), {
    message: 'Webhook registered',
  });

export const handler = createGroupHandler(integrations, {
  connectChat: connect('chat'),
  chatOAuthCallback: callback('chat', 'Chat connected'),
  registerChatWebhook: async (request) => {
    const { registerChatWebhook } = await chatWebhookModule();
    const baseUrl = (await requestBaseUrl()).baseUrlOf(request);
    return created(await registerChatWebhook(request.scope, request.body, baseUrl), {
      message: 'Chat webhook registered',
    });
  },
  chatInteraction: async (request) =>
    ok(
      await (await chatInteractions()).handleChatInteraction(request.accountScope, {
        workspaceId: request.query.workspace,
        rawBody: request.rawBody ?? '',
        headers: request.headers,
        baseUrl: (await requestBaseUrl()).baseUrlOf(request),
      }),
      { message: 'Interaction received' },
    ),
  linkChatUser: async ({ scope, params, body }) =>
    ok(await (await chatUserLinks()).linkChatUser(scope, { chatUserId: params.chatUserId, ...body }), {
      message: 'Chat user linked',
    }),
  connectCodehostA: connect('codehost-a'),
  codehostACallback: callback('codehost-a', 'Code host A connected'),
  registerCodehostAWebhook: ({ scope, body }) =>
    registerHook(scope, 'codehost-a', { target: body.repoFullName, events: body.events }),
  listCodehostARepos: async ({ scope }) => ok(await (await codeHosts()).listCodehostARepos(scope)),
  connectCodehostB: connect('codehost-b'),
  codehostBCallback: callback('codehost-b', 'Code host B connected'),
  registerCodehostBWebhook: ({ scope, body }) =>
    registerHook(scope, 'codehost-b', { target: body.projectId, events: body.events }),
  listCodehostBProjects: async ({ scope }) => ok(await (await codeHosts()).listCodehostBProjects(scope)),
  connectVideomeet: connect('videomeet'),
  videomeetOAuthCallback: callback('videomeet', 'Video meetings connected'),
  connectSms: async ({ scope, body }) =>
    created(await (await service()).connectPhone(scope, { type: 'sms', ...body }), { message: 'SMS alerts connected' }),
  connectMessagingApp: async ({ scope, body }) =>
    created(await (await service()).connectPhone(scope, { type: 'messaging-app', ...body }), {
      message: 'Messaging app connected',
    }),
  listUserIntegrations: async ({ scope, params }) =>
    ok(await (await service()).listUserIntegrations(scope, params.userId)),
  disconnectIntegration: async ({ scope, params }) =>
    ok(await (await service()).disconnectIntegration(scope, params), { message: 'Integration disconnected' }),
  vapidPublicKey: async ({ scope }) => ok(await (await push()).vapidPublicKey(scope)),
  subscribePush: async ({ scope, body }) =>
    created(await (await push()).subscribePush(scope, body), { message: 'Push notifications on for this device' }),
  unsubscribePush: async ({ scope, params }) =>
    ok(await (await push()).unsubscribePush(scope, params.id), { message: 'Push notifications off for this device' }),
  listIncidentNotifications: async ({ scope, params }) => {
    const { listIncidentNotifications } = await notificationServiceModule();
    return ok(await listIncidentNotifications(scope, params.id));
  },
});
