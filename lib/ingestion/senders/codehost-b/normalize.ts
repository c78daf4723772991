import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import type { NormalizedEvent, Normalizer } from '#lib/ingestion/normalized-event.ts';
import { PayloadError, parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact, lookupTable } from '#lib/ingestion/schema-kit.ts';
import { SENDER, baseMetadata, envelopeSchema, type Delivery } from './common.ts';
import { deployment } from './deployment.ts';
import { job } from './job.ts';
import { mergeRequest } from './merge-request.ts';
import { pipeline } from './pipeline.ts';
import { push } from './push.ts';

/** Issues, notes, releases, wiki pages...: kept as records, one per object and action. */
const otherHook = (delivery: Delivery): NormalizedEvent => {
  const attributes = (delivery.body as { object_attributes?: unknown }).object_attributes;
  const { id, action } =
    typeof attributes === 'object' && attributes !== null ? (attributes as { id?: unknown; action?: unknown }) : {};
  const repository = delivery.project?.path_with_namespace ?? 'unknown';
  return {
    signal: {
      name: `${delivery.event ?? delivery.kind} in ${repository}`,
      source: SENDER,
      type: delivery.kind,
      severity: 'LOW',
      metadata: compact(baseMetadata(delivery)),
      triggeredAt: delivery.receivedAt,
    },
    fingerprint: fingerprintOf(repository, delivery.kind, String(id ?? ''), String(action ?? '')),
    action: 'record',
  };
};

const HANDLERS = lookupTable<(delivery: Delivery) => NormalizedEvent>({
  pipeline,
  build: job,
  deployment,
  push,
  tag_push: push,
  merge_request: mergeRequest,
});

/**
 * Code host B webhooks, by the body's `object_kind` (`X-Gitlab-Event` is kept in metadata). Failed pipelines,
 * failed jobs not allowed to fail and failed deployments are problems; everything else is a record.
 */
export const normalizeCodehostB: Normalizer = (body, headers, receivedAt) => {
  const envelope = parsePayload(SENDER, envelopeSchema, body);
  if (envelope.object_kind !== 'build' && !envelope.project) {
    throw new PayloadError(SENDER, ['project: Invalid input: expected object, received undefined']);
  }
  const handler = HANDLERS.get(envelope.object_kind) ?? otherHook;
  return [
    handler({
      kind: envelope.object_kind,
      event: headers['x-gitlab-event'],
      project: envelope.project,
      user: envelope.user,
      body,
      receivedAt: receivedAt.toISOString(),
    }),
  ];
};
