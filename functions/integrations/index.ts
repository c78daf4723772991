import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { registerChatWebhook } from '#lib/integrations/chat-webhook.ts';
import { listCodehostARepos, listCodehostBProjects, registerCodeHostHook } from '#lib/integrations/code-hosts.ts';
import { connectPhone, disconnectIntegration, listUserIntegrations } from '#lib/integrations/integration-service.ts';
import { completeOAuthConnect, startOAuthConnect } from '#lib/integrations/oauth-connections.ts';
import { listIncidentNotifications } from '#lib/notifications/notification-service.ts';
import { integrations } from '#lib/routes/integrations.ts';

export const handler = createGroupHandler(integrations, {
  connectChat: async ({ scope }) => ok(await startOAuthConnect(scope, 'chat')),
  chatOAuthCallback: async ({ scope, query }) =>
    ok(await completeOAuthConnect(scope, { integration: 'chat', ...query }), { message: 'Chat connected' }),
  registerChatWebhook: async ({ scope, body }) =>
    created(await registerChatWebhook(scope, body), { message: 'Chat webhook registered' }),
  connectCodehostA: async ({ scope }) => ok(await startOAuthConnect(scope, 'codehost-a')),
  codehostACallback: async ({ scope, query }) =>
    ok(await completeOAuthConnect(scope, { integration: 'codehost-a', ...query }), {
      message: 'Code host A connected',
    }),
  registerCodehostAWebhook: async ({ scope, body }) =>
    created(await registerCodeHostHook(scope, { host: 'codehost-a', target: body.repoFullName, events: body.events }), {
      message: 'Webhook registered',
    }),
  listCodehostARepos: async ({ scope }) => ok(await listCodehostARepos(scope)),
  connectCodehostB: async ({ scope }) => ok(await startOAuthConnect(scope, 'codehost-b')),
  codehostBCallback: async ({ scope, query }) =>
    ok(await completeOAuthConnect(scope, { integration: 'codehost-b', ...query }), {
      message: 'Code host B connected',
    }),
  registerCodehostBWebhook: async ({ scope, body }) =>
    created(await registerCodeHostHook(scope, { host: 'codehost-b', target: body.projectId, events: body.events }), {
      message: 'Webhook registered',
    }),
  listCodehostBProjects: async ({ scope }) => ok(await listCodehostBProjects(scope)),
  connectVideomeet: async ({ scope }) => ok(await startOAuthConnect(scope, 'videomeet')),
  videomeetOAuthCallback: async ({ scope, query }) =>
    ok(await completeOAuthConnect(scope, { integration: 'videomeet', ...query }), {
      message: 'Video meetings connected',
    }),
  connectSms: async ({ scope, body }) =>
    created(await connectPhone(scope, { type: 'sms', ...body }), { message: 'SMS alerts connected' }),
  connectMessagingApp: async ({ scope, body }) =>
    created(await connectPhone(scope, { type: 'messaging-app', ...body }), { message: 'Messaging app connected' }),
  listUserIntegrations: async ({ scope, params }) => ok(await listUserIntegrations(scope, params.userId)),
  disconnectIntegration: async ({ scope, params }) =>
    ok(await disconnectIntegration(scope, params), { message: 'Integration disconnected' }),
  listIncidentNotifications: async ({ scope, params }) => ok(await listIncidentNotifications(scope, params.id)),
});
