import { fieldMessages } from '#lib/contract/field-messages.ts';
import { log } from '#lib/log/logger.ts';
import { createSignal } from './create-signal.ts';
import { signalInput } from './schemas.ts';
import type { Scope } from '#lib/identity/scope.ts';

export interface BulkItemResult {
  index: number;
  id?: string;
  deduplicated?: boolean;
  error?: string;
}

export interface BulkResult {
  accepted: number;
  rejected: number;
  /** In input order. */
  results: BulkItemResult[];
}

/** Items stored at once: enough to keep a 100-item request short, few enough not to burst the table. */
const CONCURRENCY = 8;

/**
 * Validates and stores each item on its own: a bad item, or one the store fails, is reported in its
 * result and never rejects its neighbours. Items with the same identity merge like separate posts.
 */
export const createSignalsBulk = async (scope: Scope, items: readonly unknown[]): Promise<BulkResult> => {
  const results: BulkItemResult[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await storeItem(scope, items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  const accepted = results.filter((result) => result.id !== undefined).length;
  return { accepted, rejected: results.length - accepted, results };
};

const storeItem = async (scope: Scope, item: unknown, index: number): Promise<BulkItemResult> => {
  const parsed = signalInput.safeParse(item);
  if (!parsed.success) return { index, error: fieldMessages('body', parsed.error).join('; ') };
  try {
    const { id, deduplicated } = await createSignal(scope, parsed.data);
    return { index, id, deduplicated };
  } catch (error) {
    log.error('bulk signal item not stored', { workspaceId: scope.workspaceId, index, error });
    return { index, error: 'could not be stored; send this item again' };
  }
};
