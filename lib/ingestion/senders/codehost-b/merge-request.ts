import * as z from 'zod/mini';
import { storableNumber } from '#lib/store/stored-json.ts';
import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact, optionalDateTime, optionalText } from '#lib/ingestion/schema-kit.ts';
import { SENDER, baseMetadata, projectSchema, type Delivery } from './common.ts';

const mergeRequestSchema = z.object({
  project: projectSchema,
  object_attributes: z.object({
    iid: storableNumber,
    title: z.string(),
    action: optionalText,
    state: optionalText,
    source_branch: optionalText,
    target_branch: optionalText,
    url: optionalText,
    updated_at: optionalDateTime,
  }),
});

export const mergeRequest = (delivery: Delivery): NormalizedEvent => {
  const { project, object_attributes: mr } = parsePayload(SENDER, mergeRequestSchema, delivery.body);
  const happened = mr.action ?? mr.state ?? 'updated';
  return {
    signal: {
      name: `Merge request !${mr.iid} ${happened} in ${project.path_with_namespace}: ${mr.title}`,
      source: SENDER,
      type: 'merge_request',
      severity: 'LOW',
      metadata: compact({
        ...baseMetadata(delivery),
        iid: mr.iid,
        title: mr.title,
        action: mr.action,
        state: mr.state,
        sourceBranch: mr.source_branch,
        targetBranch: mr.target_branch,
        url: mr.url,
      }),
      triggeredAt: mr.updated_at ?? delivery.receivedAt,
    },
    fingerprint: fingerprintOf(project.path_with_namespace, 'merge_request', mr.iid),
    action: 'record',
  };
};
