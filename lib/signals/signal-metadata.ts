import { objectKey, type ObjectStore } from '#lib/ports/object-store/object-store.ts';

/**
 * A signal's metadata is kept as JSON text, never as a DynamoDB map: a sender's payload is stored whatever
 * its numbers or nesting (a map refuses more than 32 levels and numbers past 38 digits). Up to
 * INLINE_METADATA_BYTES it stays in the item; beyond, the item holds a reference and a preview, and the
 * whole text is an object (docs/data-model.md 5.7).
 */
const INLINE_METADATA_BYTES = 16 * 1024;
/** A top-level entry larger than this stays out of the preview... */
const PREVIEW_ENTRY_BYTES = 2 * 1024;
/** ...and the preview stops growing here, so an item with a preview stays small however large the payload. */
const PREVIEW_BYTES = 8 * 1024;

const metadataObjectKey = (workspaceId: string, signalId: string): string =>
  objectKey(workspaceId, 'signals', signalId, 'metadata.json');

/**
 * The small top-level entries, in order: what correlation reads (labels, environment, summary) survives
 * however large one annotation or message is.
 */
const previewOf = (metadata: Record<string, unknown>): Record<string, unknown> => {
  const preview: Record<string, unknown> = {};
  let bytes = 2;
  for (const [name, value] of Object.entries(metadata)) {
    const entryBytes = Buffer.byteLength(JSON.stringify({ [name]: value }));
    if (entryBytes > PREVIEW_ENTRY_BYTES || bytes + entryBytes > PREVIEW_BYTES) continue;
    preview[name] = value;
    bytes += entryBytes;
  }
  return preview;
};

/** The item attributes that hold `metadata`, after writing the object when it does not fit the item. */
export const storeMetadata = async (
  objects: ObjectStore,
  workspaceId: string,
  signalId: string,
  metadata: Record<string, unknown>,
): Promise<Record<string, unknown>> => {
  const json = JSON.stringify(metadata);
  const bytes = Buffer.byteLength(json);
  if (bytes <= INLINE_METADATA_BYTES) return { metadataJson: json };
  const key = metadataObjectKey(workspaceId, signalId);
  await objects.put(key, json);
  return { metadataObject: key, metadataBytes: bytes, metadataPreviewJson: JSON.stringify(previewOf(metadata)) };
};

const parsed = (json: unknown): Record<string, unknown> | undefined =>
  typeof json === 'string' ? (JSON.parse(json) as Record<string, unknown>) : undefined;

/**
 * The metadata the item itself holds: all of it, or the preview when it is in an object. Items written
 * before metadata became text hold a map.
 */
export const itemMetadata = (item: Record<string, unknown>): Record<string, unknown> =>
  parsed(item.metadataJson) ??
  parsed(item.metadataPreviewJson) ??
  (item.metadata as Record<string, unknown> | undefined) ??
  {};

/** The object holding the item's whole metadata, when it is not in the item. */
export const metadataObjectOf = (item: Record<string, unknown>): string | undefined =>
  typeof item.metadataObject === 'string' ? item.metadataObject : undefined;

export const loadMetadata = async (objects: ObjectStore, key: string): Promise<Record<string, unknown>> =>
  JSON.parse(await objects.get(key)) as Record<string, unknown>;
