import { fieldMessages } from '#lib/contract/field-messages.ts';
import { prototypeKeyMessages } from '#lib/contract/prototype-keys.ts';
import { log } from '#lib/log/logger.ts';
import { createSignal } from './create-signal.ts';
import { signalInput, type SignalInput } from './schemas.ts';
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

/**
 * An item holding a key that would replace a prototype (the route leaves such keys to its items) is refused
 * before its schema reads it, as the body parser refuses any other body holding one.
 */
const validateItem = (item: unknown): { input: SignalInput } | { error: string } => {
  const refused = prototypeKeyMessages(item);
  if (refused.length > 0) return { error: refused.join('; ') };
  const parsed = signalInput.safeParse(item);
  return parsed.success ? { input: parsed.data } : { error: fieldMessages('body', parsed.error).join('; ') };
};

const storeItem = async (scope: Scope, item: unknown, index: number): Promise<BulkItemResult> => {
  const validated = validateItem(item);
  if ('error' in validated) return { index, error: validated.error };
  try {
    const { id, deduplicated } = await createSignal(scope, validated.input);
    return { index, id, deduplicated };
  } catch (error) {
    log.error('bulk signal item not stored', { workspaceId: scope.workspaceId, index, error });
    return { index, error: 'could not be stored; send this item again' };
  }
};
