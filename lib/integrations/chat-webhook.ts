import { BadRequestError } from '#lib/contract/errors.ts';
import { userOf } from '#lib/identity/caller.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { CredentialKeys } from '#lib/ports/credential-keys/credential-keys.ts';
import { isLoopbackUrl } from '#lib/ports/integration-providers/integration-providers.ts';
import { integrationRepository } from './integration-repository.ts';
import { PROVIDER_TIMEOUT_MS } from './provider-http.ts';
import { internalAddressOf } from './public-address.ts';
import { openSecret, sealSecret } from './sealed-credentials.ts';
import { saveIntegration } from './save-integration.ts';

/** A Slack-compatible incoming-webhook message: `text` for every client, `blocks` where they render. */
export interface ChatMessage {
  text: string;
  channel?: string;
  blocks?: unknown[];
}

/**
 * POSTs the message to the webhook; resolves with a failure reason instead of throwing, since the URL is
 * the customer's and its refusal is an outcome to record, not an error of this service. A URL reaching an
 * internal address is refused (a webhook must not be a way into the service's own network), except the
 * loopback webhooks local mode allows.
 */
export const postToChatWebhook = async (
  url: string,
  message: ChatMessage,
  { allowLoopback }: { allowLoopback: boolean },
): Promise<string | undefined> => {
  try {
    const internal = allowLoopback && isLoopbackUrl(url) ? undefined : await internalAddressOf(url);
    if (internal) return `the webhook's host resolves to an internal address (${internal})`;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
      redirect: 'error',
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return response.ok ? undefined : `the webhook answered ${response.status}`;
  } catch (error) {
    return `the webhook did not answer: ${(error as Error).message}`;
  }
};

const sealContext = (workspaceId: string) => ({ workspaceId, integration: 'CHAT_WEBHOOK' });

export interface ChatWebhookView {
  type: 'CHAT';
  integrationType: 'chat';
  channel: string | null;
  /** The host only: the whole URL is a credential and is never answered. */
  webhookHost: string;
  registeredAt: string;
}

/**
 * Registers the workspace's chat webhook after a test message to it went through; a URL that is not
 * https (plain http is allowed only on this machine in local mode), or that refuses the test, is a 400
 * and nothing is stored. The URL is sealed like a token.
 */
export const registerChatWebhook = async (
  scope: Scope,
  { webhookUrl, channel }: { webhookUrl: string; channel?: string | undefined },
): Promise<ChatWebhookView> => {
  const { userId } = userOf(scope.caller);
  const { ports, workspaceId } = scope;
  const url = new URL(webhookUrl);
  const plainAllowed = ports.integrations.allowLoopbackHttp && url.protocol === 'http:' && isLoopbackUrl(webhookUrl);
  if (url.protocol !== 'https:' && !plainAllowed) {
    throw new BadRequestError('Validation failed', ['webhookUrl: must be an https URL']);
  }
  const refused = await postToChatWebhook(
    webhookUrl,
    { text: `Incident notifications of this workspace will be posted here${channel ? ` (${channel})` : ''}.` },
    { allowLoopback: ports.integrations.allowLoopbackHttp },
  );
  if (refused) throw new BadRequestError('The webhook refused the test message', [`webhookUrl: ${refused}`]);
  const registeredAt = ports.clock.now().toISOString();
  await integrationRepository(ports.table, workspaceId).putChatWebhook({
    sealedUrl: await sealSecret(ports.credentialKeys, sealContext(workspaceId), webhookUrl),
    channel: channel ?? null,
    registeredBy: userId,
    registeredAt,
  });
  await saveIntegration(
    scope,
    { userId, type: 'chat' },
    { status: 'ACTIVE', statusReason: null, ...(channel && { channel }), reconnect: true },
  );
  return { type: 'CHAT', integrationType: 'chat', channel: channel ?? null, webhookHost: url.host, registeredAt };
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
