import type { IngestionSender } from './normalized-event.ts';

/**
 * The sender's id of a delivery, the same on its retries, for delivery deduplication; undefined for senders
 * that give none (metrics alerts, monitoring, the generic webhook, paging v2).
 * - code host A: `X-GitHub-Delivery` (kept on redelivery).
 * - paging: `X-Webhook-Id` (v3; kept on retry).
 * - code host B: `Idempotency-Key` (GitLab 17.4+, made to stay the same across retries), else
 *   `X-Gitlab-Event-UUID`. Not `X-Gitlab-Webhook-UUID`: it is new on every request, so a retry never matches.
 * - code host C: the body's `id` (one per event).
 */
export const deliveryIdOf = (
  sender: IngestionSender,
  headers: Record<string, string>,
  body: unknown,
): string | undefined => {
  switch (sender) {
    case 'codehost-a':
      return nonEmpty(headers['x-github-delivery']);
    case 'paging':
      return nonEmpty(headers['x-webhook-id']);
    case 'codehost-b':
      return nonEmpty(headers['idempotency-key']) ?? nonEmpty(headers['x-gitlab-event-uuid']);
    case 'codehost-c': {
      const id = typeof body === 'object' && body !== null ? (body as { id?: unknown }).id : undefined;
      return typeof id === 'string' ? nonEmpty(id) : undefined;
    }
    default:
      return undefined;
  }
};

const nonEmpty = (value: string | undefined): string | undefined => value?.trim() || undefined;
