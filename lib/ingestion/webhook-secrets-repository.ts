import type { SignedSender } from './senders/index.ts';
import type { Table } from '#lib/store/table.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/queries.ts';
import { deleteIfPresent, putIfAbsent, updateItem } from '#lib/store/conditional-writes.ts';
import { findItem } from '#lib/store/items.ts';

/**
 * WEBHOOK_SECRET items (docs/data-model.md 5.17): `{W}#WEBHOOK` / `SECRET#<sender>`.
 *
 * The secret is stored as given, not hashed like API keys: verifying a delivery means computing an HMAC of its
 * body with the secret itself (or, for code host B, comparing the token), so it must be recoverable. It stays in
 * the workspace's partition of the table (encrypted at rest), is read only to verify deliveries, and no route
 * ever returns it.
 */
const webhookPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'WEBHOOK');

const SECRET_SORT_PREFIX = 'SECRET#';

const webhookSecretKey = (workspaceId: string, sender: SignedSender) => ({
  pk: webhookPartition(workspaceId),
  sk: `${SECRET_SORT_PREFIX}${sender}`,
});

/** The secrets a delivery may be signed with: the current one and, until its grace period ends, the one it replaced. */
export interface WebhookSecret {
  sender: SignedSender;
  secret: string;
  previousSecret: string | null;
  previousValidUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

const webhookSecretFromItem = (item: Record<string, unknown>, workspaceId: string): WebhookSecret => {
  if (item.workspaceId !== workspaceId) throw new Error(`webhook secret ${String(item.sk)} read outside its workspace`);
  return {
    sender: item.sender as SignedSender,
    secret: item.secret as string,
    previousSecret: typeof item.previousSecret === 'string' ? item.previousSecret : null,
    previousValidUntil: typeof item.previousValidUntil === 'string' ? item.previousValidUntil : null,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const webhookSecretsRepository = (table: Table, workspaceId: string) => {
  /** Consistent: a secret set a moment ago must already guard the next delivery. */
  const findWebhookSecret = async (sender: SignedSender): Promise<WebhookSecret | undefined> => {
    return findItem(table, webhookSecretKey(workspaceId, sender), (item) => webhookSecretFromItem(item, workspaceId));
  };

  /**
   * Sets the sender's secret in one UpdateItem. Replacing one keeps the old secret valid until `previousValidUntil`,
   * so deliveries signed before the sender was switched over still pass; `if_not_exists(secret, :secret)` reads the
   * value before this write, and for a first secret it is the new one itself.
   */
  const putWebhookSecret = async (
    sender: SignedSender,
    secret: string,
    now: string,
    previousValidUntil: string,
  ): Promise<WebhookSecret> => {
    const item = await updateItem(table, webhookSecretKey(workspaceId, sender), {
      UpdateExpression:
        'SET #type = :type, workspaceId = :workspaceId, sender = :sender, previousSecret = if_not_exists(secret, :secret), ' +
        'secret = :secret, previousValidUntil = :until, createdAt = if_not_exists(createdAt, :now), updatedAt = :now',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: {
        ':type': 'WEBHOOK_SECRET',
        ':workspaceId': workspaceId,
        ':sender': sender,
        ':secret': secret,
        ':until': previousValidUntil,
        ':now': now,
      },
    });
    return webhookSecretFromItem(item, workspaceId);
  };

  const listWebhookSecretItems = async (): Promise<WebhookSecret[]> => {
    const items = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': webhookPartition(workspaceId), ':prefix': SECRET_SORT_PREFIX },
      ConsistentRead: true,
    });
    return items.map((item) => webhookSecretFromItem(item, workspaceId));
  };

  /** False when the sender had no secret. */
  const deleteWebhookSecretItem = async (sender: SignedSender): Promise<boolean> => {
    const applied = await deleteIfPresent(table, webhookSecretKey(workspaceId, sender));
    return applied !== undefined;
  };
  return { findWebhookSecret, putWebhookSecret, listWebhookSecretItems, deleteWebhookSecretItem };
};

/**
 * Sets a sender's first secret; false when it has one already, which a registered hook may be signing
 * with. Apart from the factory so that ingestion, which only reads secrets, does not bundle it.
 */
export const putWebhookSecretIfAbsent = async (
  table: Table,
  workspaceId: string,
  { sender, secret, now }: { sender: SignedSender; secret: string; now: string },
): Promise<boolean> =>
  putIfAbsent(table, {
    ...webhookSecretKey(workspaceId, sender),
    type: 'WEBHOOK_SECRET',
    workspaceId,
    sender,
    secret,
    createdAt: now,
    updatedAt: now,
  });
