/**
 * Object storage for what does not fit a table item (DynamoDB's 400 KB) or a queue message (SQS's
 * 256 KiB): S3 in AWS, a directory under DATA_DIR locally. Bodies are text (JSON); keys come from
 * `objectKey`, so every object of a workspace is under its id.
 */
export interface ObjectStore {
  /** `transient` objects are working copies the bucket's lifecycle deletes after QUEUED_OBJECT_DAYS. */
  put(key: string, body: string, options?: { transient?: boolean }): Promise<void>;
  /** Throws when there is no such object: every key read was written first. */
  get(key: string): Promise<string>;
}

/** Longer than SQS keeps a message (14 days at most), so a queued message never outlives its object. */
export const QUEUED_OBJECT_DAYS = 15;

/** The object tag the bucket's lifecycle rule expires; only `transient` puts carry it. */
export const TRANSIENT_TAG = { key: 'retention', value: 'transient' } as const;

const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** `<workspaceId>/<segment>/...`: the workspace id first, so a workspace's objects share one prefix. */
export const objectKey = (workspaceId: string, ...segments: string[]): string => {
  const parts = [workspaceId, ...segments];
  const bad = parts.find((part) => !SEGMENT.test(part) || part === '.' || part === '..');
  if (bad !== undefined) throw new Error(`object key segment ${JSON.stringify(bad)} is not a plain name`);
  return parts.join('/');
};
