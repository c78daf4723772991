import { gunzipSync, gzipSync } from 'node:zlib';
import { workspaceKey } from '#lib/store/keys.ts';

/**
 * PIPELINE_PAYLOAD items (docs/data-model.md 5.8): the run's latest webhook body, gzipped, beside the run
 * (`{W}#RUNRAW` / `<runId>`), so list partitions keep small items.
 */
export const runPayloadItemKey = (workspaceId: string, runId: string) => ({
  pk: workspaceKey(workspaceId, 'RUNRAW'),
  sk: runId,
});

/** Under DynamoDB's 400 KB item limit with room for the keys and attributes. */
const MAX_COMPRESSED_BYTES = 350 * 1024;

/**
 * The gzipped JSON text of the body. A body still too large compressed (ingestion accepts 5 MiB) keeps its
 * beginning as text, cut until it fits, and is marked truncated: it can no longer be parsed, but can be read.
 */
const compress = (payload: unknown): { rawPayload: Buffer; truncated: boolean } => {
  const text = JSON.stringify(payload) ?? 'null';
  let compressed = gzipSync(text);
  if (compressed.length <= MAX_COMPRESSED_BYTES) return { rawPayload: compressed, truncated: false };
  let length = text.length;
  while (compressed.length > MAX_COMPRESSED_BYTES) {
    length = Math.floor((length * MAX_COMPRESSED_BYTES * 0.9) / compressed.length);
    compressed = gzipSync(text.slice(0, length));
  }
  return { rawPayload: compressed, truncated: true };
};

export const runPayloadToItem = (workspaceId: string, runId: string, payload: unknown, updatedAt: string) => ({
  ...runPayloadItemKey(workspaceId, runId),
  type: 'PIPELINE_PAYLOAD',
  workspaceId,
  runId,
  ...compress(payload),
  updatedAt,
});

export const runPayloadFromItem = (
  item: Record<string, unknown> | undefined,
): { rawPayload: unknown; rawPayloadTruncated: boolean } => {
  if (!item) return { rawPayload: null, rawPayloadTruncated: false };
  const text = gunzipSync(item.rawPayload as Uint8Array).toString('utf8');
  const truncated = item.truncated === true;
  return { rawPayload: truncated ? text : (JSON.parse(text) as unknown), rawPayloadTruncated: truncated };
};
