import * as z from 'zod/mini';
import { defineGroup, type RouteSpec } from '#lib/http/route.ts';
import { incidentIdParams } from '#lib/incidents/schemas.ts';
import {
  chatInteractionQuery,
  chatInteractionSchema,
  chatUserLinkBody,
  chatUserLinkSchema,
  chatUserParams,
  chatWebhookBody,
  chatWebhookSchema,
  codehostAWebhookBody,
  codehostBWebhookBody,
  connectStartSchema,
  disconnectParams,
  integrationSchema,
  messagingAppConnectBody,
  oauthCallbackQuery,
  projectSchema,
  registeredHookSchema,
  repoSchema,
  smsConnectBody,
  userIdParams,
} from '#lib/integrations/schemas.ts';
import { deliverySchema } from '#lib/notifications/schemas.ts';
import { credentialKeys } from '#lib/ports/credential-keys/credential-keys-need.ts';
import { integrationProviders } from '#lib/ports/integration-providers/integration-providers-need.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';
import { usagePlan } from '#lib/ports/usage-plan/usage-plan-need.ts';
import { network } from '#lib/ports/network/network-need.ts';
import { pushKeys } from '#lib/ports/push-keys/push-keys-need.ts';
import { queueSender } from '#lib/ports/queue/queue-need.ts';
import { metrics } from '#lib/ports/metrics/metrics-need.ts';
import {
  pushSubscriptionBody,
  pushSubscriptionParams,
  pushSubscriptionSchema,
  vapidPublicKeySchema,
} from '#lib/push/schemas.ts';

const connectRoute = (path: string, name: string) =>
  ({
    method: 'POST',
    path,
    summary: `Start connecting ${name}; returns its authorization URL`,
    description:
      'Answers `data.authUrl`, the provider page where the person approves the connection, with a signed `state` ' +
      "bound to the caller, the workspace and this provider for 10 minutes (`data.expiresAt`). The provider's " +
      "OAuth application comes from the deployment's settings; an unconfigured provider is a 400.",
    auth: 'bearer',
    access: 'admin',
    response: { status: 200, data: connectStartSchema },
  }) satisfies RouteSpec;

const callbackRoute = (path: string, name: string) =>
  ({
    method: 'GET',
    path,
    summary: `Complete the ${name} token exchange`,
    description:
      'Takes the `code` and `state` the provider sent back. The state must be one this service signed for this ' +
      'provider, for the caller, in this workspace, not expired and not used before (each state works once); any ' +
      'other is a 400 naming `state`. The code is exchanged for tokens, which are stored encrypted; a code the ' +
      'provider refuses leaves the integration in `ERROR` with the reason and answers 400.',
    auth: 'bearer',
    access: 'admin',
    request: { query: oauthCallbackQuery },
    response: { status: 200, data: integrationSchema },
  }) satisfies RouteSpec;

export const integrations = defineGroup({
  name: 'integrations',
  description: 'Third-party integrations: connection, OAuth callbacks, webhook registration and listings.',
  // The notifications queue and metrics: a chat button acknowledges, resolves or escalates as the incidents
  // routes do, counted and paged.
  needs: [
    tableReadWrite,
    signingKeys,
    integrationProviders,
    credentialKeys,
    usagePlan,
    network,
    pushKeys,
    queueSender('notifications'),
    metrics,
  ],
  routes: {
    connectChat: connectRoute('/api/v1/integrations/chat/connect', 'the chat tool'),
    chatOAuthCallback: callbackRoute('/api/v1/integrations/chat/oauth/callback', 'chat tool'),
    registerChatWebhook: {
      method: 'POST',
      path: '/api/v1/integrations/chat/webhook',
      summary: 'Register the chat notification webhook',
      description:
        'A Slack-compatible incoming-webhook URL, https only, checked with a test message before it is kept: a ' +
        'URL that refuses it is a 400 and nothing is stored. Incident notifications of the workspace are posted ' +
        "there. The URL is stored encrypted and never answered (`webhookHost` only). With the chat app's " +
        '`signingSecret` (stored encrypted, never answered) pages carry Acknowledge, Resolve and Escalate ' +
        'buttons; give the chat app `interactionsUrl` as its interactivity request URL (docs/integrations.md).',
      auth: 'bearer',
      access: 'admin',
      request: { body: chatWebhookBody },
      response: { status: 201, data: chatWebhookSchema },
    },
    chatInteraction: {
      method: 'POST',
      path: '/api/v1/integrations/chat/interactions',
      summary: "A press of a chat page's button, from the chat app (Slack's interactivity request)",
      description:
        'A form-encoded `payload` field (a Slack `block_actions` JSON). Verified with the signing secret of the workspace ' +
        "`?workspace=` names (`X-Slack-Signature`, v0 HMAC over `X-Slack-Request-Timestamp` and the body, 5 minutes' " +
        'replay window): anything else is a 401 and changes nothing. Acts once per press, as the member the chat ' +
        'user is linked to, with their role; an unlinked user or a VIEWER is answered privately and nothing changes. ' +
        'The message is updated in place to say who did what.',
      auth: 'public',
      formBody: true,
      request: { query: chatInteractionQuery },
      response: { status: 200, data: chatInteractionSchema },
    },
    linkChatUser: {
      method: 'PUT',
      path: '/api/v1/integrations/chat/users/:chatUserId',
      summary: 'Link a chat user to a member, whom their button presses act as',
      description:
        'An ADMIN links any member; a member links only themselves, with the `linkToken` of the link their ' +
        "unlinked press was answered with (the console's `/link-chat` page sends it). An unknown member is a 404.",
      auth: 'bearer',
      access: 'read',
      request: { params: chatUserParams, body: chatUserLinkBody },
      response: { status: 200, data: chatUserLinkSchema },
    },
    connectCodehostA: connectRoute('/api/v1/integrations/codehost-a/connect', 'code host A'),
    codehostACallback: callbackRoute('/api/v1/integrations/codehost-a/callbacks/codehost-a', 'code host A'),
    registerCodehostAWebhook: {
      method: 'POST',
      path: '/api/v1/integrations/codehost-a/webhook',
      summary: 'Register a code host A repository webhook',
      description:
        "Creates a hook on the repository, through code host A's API with the workspace's connection, that " +
        "delivers to this workspace's `/ingestion/codehost-a` with an `ingestion:write` API key of its own and is " +
        "signed with the workspace's code host A webhook secret (generated if none is set).",
      auth: 'bearer',
      access: 'admin',
      request: { body: codehostAWebhookBody },
      response: { status: 201, data: registeredHookSchema },
    },
    listCodehostARepos: {
      method: 'GET',
      path: '/api/v1/integrations/codehost-a/repos',
      summary: 'List the repositories of the connected code host A account',
      description: 'The first 100, most recently updated first; 409 when code host A is not connected.',
      auth: 'bearerOrApiKey',
      scope: 'integrations:read',
      access: 'read',
      response: { status: 200, data: z.array(repoSchema) },
    },
    connectCodehostB: connectRoute('/api/v1/integrations/codehost-b/connect', 'code host B'),
    codehostBCallback: callbackRoute('/api/v1/integrations/codehost-b/callback', 'code host B'),
    registerCodehostBWebhook: {
      method: 'POST',
      path: '/api/v1/integrations/codehost-b/webhook',
      summary: 'Register a code host B project webhook',
      description:
        'As for code host A: the hook delivers to `/ingestion/codehost-b` with its own key and carries the ' +
        "workspace's code host B secret as its token.",
      auth: 'bearer',
      access: 'admin',
      request: { body: codehostBWebhookBody },
      response: { status: 201, data: registeredHookSchema },
    },
    listCodehostBProjects: {
      method: 'GET',
      path: '/api/v1/integrations/codehost-b/projects',
      summary: 'List the projects of the connected code host B account',
      description: 'The first 100 the account is a member of, most recently active first; 409 when not connected.',
      auth: 'bearerOrApiKey',
      scope: 'integrations:read',
      access: 'read',
      response: { status: 200, data: z.array(projectSchema) },
    },
    connectVideomeet: connectRoute(
      '/api/v1/integrations/videomeet/connect',
      'the video-meeting tool for war-room links',
    ),
    videomeetOAuthCallback: callbackRoute('/api/v1/integrations/videomeet/oauth/callback', 'video-meeting tool'),
    connectSms: {
      method: 'POST',
      path: '/api/v1/integrations/sms/connect',
      summary: "Connect SMS alerts to the caller's phone number",
      auth: 'bearer',
      access: 'admin',
      request: { body: smsConnectBody },
      response: { status: 201, data: integrationSchema },
    },
    connectMessagingApp: {
      method: 'POST',
      path: '/api/v1/integrations/messaging-app/connect',
      summary: 'Connect the messaging app to a pre-registered phone number',
      auth: 'bearer',
      access: 'admin',
      request: { body: messagingAppConnectBody },
      response: { status: 201, data: integrationSchema },
    },
    listUserIntegrations: {
      method: 'GET',
      path: '/api/v1/integrations/:userId',
      summary: 'List the integrations of a member of the workspace',
      description: 'Every integration the member connected, whatever its status; a user of another workspace is a 404.',
      auth: 'bearerOrApiKey',
      scope: 'integrations:read',
      access: 'read',
      request: { params: userIdParams },
      response: { status: 200, data: z.array(integrationSchema) },
    },
    disconnectIntegration: {
      method: 'DELETE',
      path: '/api/v1/integrations/:userId/:integrationType',
      summary: "Disconnect a member's integration",
      description:
        'The integration becomes `DISCONNECTED` and its stored tokens are deleted; it stays in the list. ' +
        "Disconnecting `chat` also removes the workspace's chat webhook. Hooks created at code hosts stay there.",
      auth: 'bearer',
      access: 'admin',
      request: { params: disconnectParams },
      response: { status: 200, data: integrationSchema },
    },
    // Web Push is a member's own notification channel, as an SMS number is (docs/decisions.md, "Web Push").
    vapidPublicKey: {
      method: 'GET',
      path: '/api/v1/push/vapid-public-key',
      summary: "The VAPID public key browsers subscribe with (`pushManager.subscribe`'s applicationServerKey)",
      auth: 'bearer',
      access: 'read',
      response: { status: 200, data: vapidPublicKeySchema },
    },
    subscribePush: {
      method: 'POST',
      path: '/api/v1/push/subscriptions',
      summary: "Turn push notifications on for the caller's browser",
      description:
        "Takes the browser's `PushSubscription` JSON (`endpoint`, `keys.p256dh`, `keys.auth`). The endpoint must " +
        "be a push service's (FCM, Mozilla's autopush, Apple's web push, WNS; else a 400 naming `endpoint`). Pages " +
        'to the caller then go to every device subscribed (at most 10; the same browser again replaces its own).',
      auth: 'bearer',
      access: 'read',
      request: { body: pushSubscriptionBody },
      response: { status: 201, data: pushSubscriptionSchema },
    },
    unsubscribePush: {
      method: 'DELETE',
      path: '/api/v1/push/subscriptions/:id',
      summary: "Turn push notifications off for one of the caller's devices",
      description: "The id `POST /push/subscriptions` answered; another member's or an unknown one is a 404.",
      auth: 'bearer',
      access: 'read',
      request: { params: pushSubscriptionParams },
      response: { status: 200, data: z.object({ id: z.string() }) },
    },
    listIncidentNotifications: {
      method: 'GET',
      path: '/api/v1/incident-ticket/:id/notifications',
      summary: "An incident's notifications and every attempt to send them",
      description:
        'One entry per event (`OPENED`, `ACKNOWLEDGED`, `PRIORITY_RAISED`, `ESCALATION`, `ESCALATE_NOW`, `RESOLVED`, ' +
        'the SLA breaches), channel and recipient, oldest event first, with ' +
        'its `status` (`SENT`, `FAILED`, `MUTED` during silent hours, `UNCONFIRMED` for an outside address that has ' +
        'not confirmed) and `attempts`.',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      request: { params: incidentIdParams },
      response: { status: 200, data: z.array(deliverySchema) },
    },
  },
});
