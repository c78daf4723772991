import { NotFoundError, UnauthorizedError } from '#lib/contract/errors.ts';
import type { Ports } from '#lib/ports/ports.ts';
import {
  type IngestionSender,
  isSignedSender,
  SIGNED_SENDERS,
  type SignedSender,
  senderNamed,
} from './senders/index.ts';
import type { SignatureRule } from './signature-rules.ts';
import type { WebhookSecret } from './webhook-secrets-repository.ts';
import { webhookSecretsRepository } from './webhook-secrets-repository.ts';
import type { Scope } from '#lib/identity/scope.ts';

/** How long a replaced secret still verifies, so a sender can be switched over after the service. */
const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * How long an instance keeps what it read of a sender's secret (none included), so a stream of deliveries
 * reads it once per instance and window rather than once per delivery: as long as the gateway keeps a
 * checked API key. Setting, replacing or removing a secret takes effect at once on the instance that did
 * it and within this time on the others (docs/security.md).
 */
const SECRET_CACHE_MS = 10_000;

const knownSecrets = new Map<string, { stored: WebhookSecret | undefined; until: number }>();

const secretCacheKey = (workspaceId: string, sender: SignedSender): string => `${workspaceId}\u0000${sender}`;

const storedSecret = async (
  { table, clock }: Pick<Ports, 'table' | 'clock'>,
  workspaceId: string,
  sender: SignedSender,
): Promise<WebhookSecret | undefined> => {
  const key = secretCacheKey(workspaceId, sender);
  const now = clock.now().getTime();
  const known = knownSecrets.get(key);
  if (known && known.until > now) return known.stored;
  const stored = await webhookSecretsRepository(table, workspaceId).findWebhookSecret(sender);
  knownSecrets.set(key, { stored, until: now + SECRET_CACHE_MS });
  return stored;
};

/** What the API says about a sender's secret: whether one is set and when, never the secret. */
export interface WebhookSecretStatus {
  sender: SignedSender;
  signatureHeader: string;
  configured: boolean;
  setAt: string | null;
  /** While a replaced secret still verifies deliveries. */
  previousValidUntil: string | null;
}

/** A signed sender's rule: `isSignedSender` has checked it has one. */
const signatureOf = (sender: SignedSender): SignatureRule => senderNamed(sender).signature as SignatureRule;

const statusOf = (sender: SignedSender, stored: WebhookSecret | undefined, now: Date): WebhookSecretStatus => {
  const graceActive =
    stored?.previousSecret != null &&
    stored.previousSecret !== stored.secret &&
    stored.previousValidUntil !== null &&
    Date.parse(stored.previousValidUntil) > now.getTime();
  return {
    sender,
    signatureHeader: signatureOf(sender).location,
    configured: stored !== undefined,
    setAt: stored?.updatedAt ?? null,
    previousValidUntil: graceActive ? stored.previousValidUntil : null,
  };
};

export const setWebhookSecret = async (
  { ports: { table, clock }, workspaceId }: Scope,
  { sender, secret }: { sender: SignedSender; secret: string },
): Promise<WebhookSecretStatus> => {
  const now = clock.now();
  knownSecrets.delete(secretCacheKey(workspaceId, sender));
  const stored = await webhookSecretsRepository(table, workspaceId).putWebhookSecret(
    sender,
    secret,
    now.toISOString(),
    new Date(now.getTime() + ROTATION_GRACE_MS).toISOString(),
  );
  return statusOf(sender, stored, now);
};

/** Every sender that can sign, with or without a secret. */
export const listWebhookSecrets = async ({
  ports: { table, clock },
  workspaceId,
}: Scope): Promise<WebhookSecretStatus[]> => {
  const stored = await webhookSecretsRepository(table, workspaceId).listWebhookSecretItems();
  const now = clock.now();
  return SIGNED_SENDERS.map((sender) =>
    statusOf(
      sender,
      stored.find((item) => item.sender === sender),
      now,
    ),
  );
};

export const deleteWebhookSecret = async (
  { ports: { table }, workspaceId }: Scope,
  sender: SignedSender,
): Promise<void> => {
  knownSecrets.delete(secretCacheKey(workspaceId, sender));
  if (!(await webhookSecretsRepository(table, workspaceId).deleteWebhookSecretItem(sender))) {
    throw new NotFoundError('No webhook secret is set for this sender', [`sender: ${sender} has no secret`]);
  }
};

/**
 * Refuses a delivery whose signature does not match the secret the workspace set for its sender (401, before
 * anything is stored). Without a secret there is nothing to check: signatures are optional per sender.
 */
export const verifyDeliverySignature = async (
  { ports, workspaceId }: Scope,
  {
    sender,
    headers,
    body,
    rawBody,
  }: { sender: IngestionSender; headers: Record<string, string>; body: unknown; rawBody: string },
): Promise<void> => {
  if (!isSignedSender(sender)) return;
  const { clock } = ports;
  const stored = await storedSecret(ports, workspaceId, sender);
  if (!stored) return;
  const rule = signatureOf(sender);
  const proof = rule.proofOf({ headers, body });
  if (!proof) {
    throw new UnauthorizedError('Missing webhook signature', [
      `${rule.location}: required, a secret is set for ${sender}`,
    ]);
  }
  const graceActive =
    stored.previousValidUntil !== null && Date.parse(stored.previousValidUntil) > clock.now().getTime();
  const secrets = [stored.secret, ...(graceActive && stored.previousSecret ? [stored.previousSecret] : [])];
  if (!secrets.some((secret) => rule.matches(proof, rawBody, secret))) {
    throw new UnauthorizedError('Invalid webhook signature', [
      `${rule.location}: does not match the secret set for ${sender}`,
    ]);
  }
};
