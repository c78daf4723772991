import type { Scope } from '#lib/identity/scope.ts';
import { putWebhookSecretIfAbsent, webhookSecretsRepository } from '#lib/ingestion/webhook-secrets-repository.ts';
import type { SignedSender } from '#lib/ingestion/senders/index.ts';

/**
 * The secret a hook registered at a code host signs with: the sender's secret already set (other hooks
 * sign with it), else `candidate`, set by a conditional put so that two registrations at once end with the
 * same secret. Ingestion checks deliveries against it (its instances see a new secret within their short
 * cache, docs/security.md).
 */
export const ensureWebhookSecret = async (
  { ports: { table, clock }, workspaceId }: Scope,
  { sender, candidate }: { sender: SignedSender; candidate: string },
): Promise<string> => {
  const secrets = webhookSecretsRepository(table, workspaceId);
  const existing = await secrets.findWebhookSecret(sender);
  if (existing) return existing.secret;
  if (
    await putWebhookSecretIfAbsent(table, workspaceId, { sender, secret: candidate, now: clock.now().toISOString() })
  ) {
    return candidate;
  }
  const winner = await secrets.findWebhookSecret(sender);
  if (!winner) throw new Error(`the ${sender} webhook secret vanished while it was being set`);
  return winner.secret;
};
