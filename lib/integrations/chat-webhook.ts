import { BadRequestError } from '#lib/contract/errors.ts';
import { userOf } from '#lib/identity/caller.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { CredentialKeys } from '#lib/ports/credential-keys/credential-keys.ts';
import { log } from '#lib/log/logger.ts';
import type { Network } from '#lib/ports/network/network.ts';
import {
  type CheckedUrl,
  OutboundUrlRefusedError,
  checkOutboundUrl,
  pinnedFetch,
} from '#lib/ports/network/outbound-url.ts';
import { integrationRepository } from './integration-repository.ts';
import { PROVIDER_TIMEOUT_MS } from './provider-http.ts';
import { openSecret, sealSecret } from './sealed-credentials.ts';
import { saveIntegration } from './save-integration.ts';

/** A Slack-compatible incoming-webhook message: `text` for every client, `blocks` where they render. */
export interface ChatMessage {
  text: string;
  channel?: string;
  blocks?: unknown[];
  /** A reply to a button press: `ephemeral` shows it to the presser alone. */
  response_type?: 'ephemeral' | 'in_channel';
  /** A reply to a button press: true replaces the message the button sat in. */
  replace_original?: boolean;
}

/**
 * POSTs the message to the webhook; resolves with a failure reason instead of throwing, since the URL is
 * the customer's and its refusal is an outcome to record, not an error of this service. The URL passes the
 * outbound guard at every delivery (a name may be pointed elsewhere since registration) and the request
 * goes to the address the guard approved. What the host answered is logged, never passed on: a reason names
 * only the status, so a webhook cannot be used to read what answers at an address.
 */
export const postToChatWebhook = async (
  network: Network,
  url: string,
  message: ChatMessage,
): Promise<string | undefined> => {
  let checked: CheckedUrl;
  try {
    checked = await checkOutboundUrl(network, url);
  } catch (error) {
    if (error instanceof OutboundUrlRefusedError) return error.message;
    throw error;
  }
  try {
    const response = await pinnedFetch(checked)(checked.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return response.ok ? undefined : `the webhook answered ${response.status}`;
  } catch (error) {
    log.info('chat webhook did not answer', { webhookHost: checked.url.host, reason: (error as Error).message });
    return 'the webhook did not answer';
  }
};

const sealContext = (workspaceId: string) => ({ workspaceId, integration: 'CHAT_WEBHOOK' });

export interface ChatWebhookView {
  type: 'CHAT';
  integrationType: 'chat';
  channel: string | null;
  /** The host only: the whole URL is a credential and is never answered. */
  webhookHost: string;
  buttons: boolean;
  interactionsUrl: string;
  registeredAt: string;
}

const signingSecretContext = (workspaceId: string) => ({ workspaceId, integration: 'CHAT_SIGNING_SECRET' });

/**
 * The interactivity request URL the chat app is given: the workspace's id rides in the query, so an interaction
 * names whose signing secret verifies it; the id is not trusted for anything until that signature holds.
 */
export const interactionsUrlOf = (baseUrl: string, workspaceId: string): string =>
  `${baseUrl}/api/v1/integrations/chat/interactions?workspace=${encodeURIComponent(workspaceId)}`;

/**
 * Registers the workspace's chat webhook after a test message to it went through; a URL the outbound
 * guard refuses, or that refuses the test, is a 400 and nothing is stored. The URL is sealed like a token, and
 * so is the chat app's signing secret when given (the buttons work only with one; docs/integrations.md).
 */
export const registerChatWebhook = async (
  scope: Scope,
  {
    webhookUrl,
    channel,
    signingSecret,
  }: { webhookUrl: string; channel?: string | undefined; signingSecret?: string | undefined },
  baseUrl: string,
): Promise<ChatWebhookView> => {
  const { userId } = userOf(scope.caller);
  const { ports, workspaceId } = scope;
  const url = new URL(webhookUrl);
  const refused = await postToChatWebhook(ports.network, webhookUrl, {
    text: `Incident notifications of this workspace will be posted here${channel ? ` (${channel})` : ''}.`,
  });
  if (refused) throw new BadRequestError('The webhook refused the test message', [`webhookUrl: ${refused}`]);
  const registeredAt = ports.clock.now().toISOString();
  await integrationRepository(ports.table, workspaceId).putChatWebhook({
    sealedUrl: await sealSecret(ports.credentialKeys, sealContext(workspaceId), webhookUrl),
    channel: channel ?? null,
    ...(signingSecret && {
      sealedSigningSecret: await sealSecret(ports.credentialKeys, signingSecretContext(workspaceId), signingSecret),
    }),
    registeredBy: userId,
    registeredAt,
  });
  await saveIntegration(
    scope,
    { userId, type: 'chat' },
    { status: 'ACTIVE', statusReason: null, ...(channel && { channel }), reconnect: true },
  );
  return {
    type: 'CHAT',
    integrationType: 'chat',
    channel: channel ?? null,
    webhookHost: url.host,
    buttons: signingSecret !== undefined,
    interactionsUrl: interactionsUrlOf(baseUrl, workspaceId),
    registeredAt,
  };
};

/** The workspace's webhook URL, opened, or undefined when none is registered. */
export const chatWebhookUrl = async (
  { table, credentialKeys }: { table: Scope['ports']['table']; credentialKeys: CredentialKeys },
  workspaceId: string,
): Promise<{ url: string; channel: string | null } | undefined> => {
  const webhook = await integrationRepository(table, workspaceId).getChatWebhook();
  if (!webhook) return undefined;
  return {
    url: await openSecret(credentialKeys, sealContext(workspaceId), webhook.sealedUrl),
    channel: webhook.channel,
  };
};

/** The chat app's signing secret, opened, or undefined when the workspace set none (its buttons then do nothing). */
export const chatSigningSecret = async (
  { table, credentialKeys }: { table: Scope['ports']['table']; credentialKeys: CredentialKeys },
  workspaceId: string,
): Promise<string | undefined> => {
  const webhook = await integrationRepository(table, workspaceId).getChatWebhook();
  if (!webhook?.sealedSigningSecret) return undefined;
  return openSecret(credentialKeys, signingSecretContext(workspaceId), webhook.sealedSigningSecret);
};
