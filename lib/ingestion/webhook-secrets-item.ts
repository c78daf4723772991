import { workspaceKey } from '#lib/store/keys.ts';
import type { SignedSender } from './webhook-secrets-signature.ts';

/**
 * WEBHOOK_SECRET items (docs/data-model.md 5.17): `{W}#WEBHOOK` / `SECRET#<sender>`.
 *
 * The secret is stored as given, not hashed like API keys: verifying a delivery means computing an HMAC of its
 * body with the secret itself (or, for code host B, comparing the token), so it must be recoverable. It stays in
 * the workspace's partition of the table (encrypted at rest), is read only to verify deliveries, and no route
 * ever returns it.
 */
export const webhookPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'WEBHOOK');

export const SECRET_SORT_PREFIX = 'SECRET#';

export const webhookSecretKey = (workspaceId: string, sender: SignedSender) => ({
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

export const webhookSecretFromItem = (item: Record<string, unknown>, workspaceId: string): WebhookSecret => {
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
