import type { Table } from '#lib/store/table.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/queries.ts';
import { deleteItem, putIf, putIfAbsent, putItem } from '#lib/store/conditional-writes.ts';
import { findItem, getItem } from '#lib/store/items.ts';
import type { Integration, IntegrationType, StoredIntegration } from './integration.ts';

/** INTEGRATION items (docs/data-model.md 5.17): `{W}#INTEGRATION` / `<userId>#<integrationType>`. */
const integrationPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'INTEGRATION');

const integrationKey = (workspaceId: string, userId: string, type: IntegrationType) => ({
  pk: integrationPartition(workspaceId),
  sk: `${userId}#${type}`,
});

/** The workspace's chat webhook: one per workspace, beside its members' integrations. */
const chatWebhookKey = (workspaceId: string) => ({ pk: integrationPartition(workspaceId), sk: 'CHAT_WEBHOOK' });

/** A used state (`{W}#OAUTH_STATE` / `<stateId>`): its existence is what makes a state single-use. */
const usedStateKey = (workspaceId: string, stateId: string) => ({
  pk: workspaceKey(workspaceId, 'OAUTH_STATE'),
  sk: stateId,
});

/** Kept a day past expiry, only so the table's TTL collects it; expiry itself is checked before the put. */
const GARBAGE_AFTER_SECONDS = 24 * 60 * 60;

const toItem = (workspaceId: string, integration: StoredIntegration): Record<string, unknown> => ({
  ...integrationKey(workspaceId, integration.userId, integration.integrationType),
  type: 'INTEGRATION',
  workspaceId,
  ...integration,
});

const fromItem = (item: Record<string, unknown>, workspaceId: string): StoredIntegration => {
  if (item.workspaceId !== workspaceId) throw new Error(`integration ${String(item.sk)} read outside its workspace`);
  return {
    id: item.id as string,
    userId: item.userId as string,
    integrationType: item.integrationType as IntegrationType,
    status: item.status as Integration['status'],
    statusReason: (item.statusReason as string | null | undefined) ?? null,
    connectedAt: item.connectedAt as string,
    updatedAt: item.updatedAt as string,
    ...(typeof item.phoneNumber === 'string' && { phoneNumber: item.phoneNumber }),
    ...(typeof item.provider === 'string' && { provider: item.provider }),
    ...(typeof item.channel === 'string' && { channel: item.channel }),
    credentials: (item.credentials as string | null | undefined) ?? null,
    rev: (item.rev as number | undefined) ?? 0,
  };
};

/** The registered chat webhook: its URL sealed like a token (whoever has it can post to the channel). */
export interface ChatWebhook {
  sealedUrl: string;
  channel: string | null;
  /** The chat app's signing secret, sealed: what its interaction requests are verified with (docs/integrations.md). */
  sealedSigningSecret?: string;
  registeredBy: string;
  registeredAt: string;
}

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const integrationRepository = (table: Table, workspaceId: string) => {
  const findIntegration = async (userId: string, type: IntegrationType): Promise<StoredIntegration | undefined> =>
    findItem(table, integrationKey(workspaceId, userId, type), (item) => fromItem(item, workspaceId));

  /**
   * Writes the connection if nobody changed it since it was read at `expectedRev` (0: it did not exist), so
   * a refresh racing a disconnect cannot bring a removed token back. False when somebody did.
   */
  const writeIntegration = async (integration: StoredIntegration, expectedRev: number): Promise<boolean> =>
    putIf(table, toItem(workspaceId, { ...integration, rev: expectedRev + 1 }), {
      ConditionExpression: expectedRev === 0 ? 'attribute_not_exists(sk)' : 'rev = :read',
      ...(expectedRev !== 0 && { ExpressionAttributeValues: { ':read': expectedRev } }),
    });

  /** A member's integrations; the chat webhook item sorts apart from every `<userId>#` key. */
  const queryUserIntegrations = async (userId: string): Promise<StoredIntegration[]> => {
    const items = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :user)',
      ExpressionAttributeValues: { ':pk': integrationPartition(workspaceId), ':user': `${userId}#` },
    });
    return items.map((item) => fromItem(item, workspaceId));
  };

  /** Every member's connections: a partition of a few items per member, read to find the workspace's. */
  const queryWorkspaceIntegrations = async (): Promise<StoredIntegration[]> => {
    const items = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk',
      FilterExpression: '#type = :type',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':pk': integrationPartition(workspaceId), ':type': 'INTEGRATION' },
    });
    return items.map((item) => fromItem(item, workspaceId));
  };

  /** False when the state was used before: the conditional put is the single use. */
  const markStateUsed = async (stateId: string, expiresAt: string): Promise<boolean> =>
    putIfAbsent(table, {
      ...usedStateKey(workspaceId, stateId),
      type: 'OAUTH_STATE',
      workspaceId,
      expiresAt,
      ttl: Math.floor(Date.parse(expiresAt) / 1000) + GARBAGE_AFTER_SECONDS,
    });

  const putChatWebhook = async (webhook: ChatWebhook): Promise<void> => {
    await putItem(table, { ...chatWebhookKey(workspaceId), type: 'CHAT_WEBHOOK', workspaceId, ...webhook });
  };

  const getChatWebhook = async (): Promise<ChatWebhook | undefined> => {
    const item = await getItem(table, chatWebhookKey(workspaceId), false);
    if (!item) return undefined;
    return {
      sealedUrl: item.sealedUrl as string,
      channel: (item.channel as string | null | undefined) ?? null,
      ...(typeof item.sealedSigningSecret === 'string' && { sealedSigningSecret: item.sealedSigningSecret }),
      registeredBy: item.registeredBy as string,
      registeredAt: item.registeredAt as string,
    };
  };

  const deleteChatWebhook = async (): Promise<void> => {
    await deleteItem(table, chatWebhookKey(workspaceId));
  };

  return {
    findIntegration,
    writeIntegration,
    queryUserIntegrations,
    queryWorkspaceIntegrations,
    markStateUsed,
    putChatWebhook,
    getChatWebhook,
    deleteChatWebhook,
  };
};
