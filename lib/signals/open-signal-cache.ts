/**
 * The open signal each fingerprint claim named when this instance last wrote to it, and the delivery
 * marks that signal keeps beyond the newest ones (the next merge removes them), so a repeat of the
 * fingerprint is one conditional UpdateItem on that signal without reading the claim. Never trusted for
 * correctness: the merge's condition (the signal exists and still merges) is what decides, and while a
 * signal merges the claim names it (a signal leaves the merging states only to RESOLVED, for good). An
 * entry is kept TTL_MS, at most MAX_ENTRIES of them, oldest out first.
 */
const TTL_MS = 5 * 60_000;
const MAX_ENTRIES = 10_000;

export interface OpenSignal {
  signalId: string;
  staleMarks: string[];
}

const entries = new Map<string, OpenSignal & { until: number }>();

const keyOf = (workspaceId: string, claimSk: string): string => `${workspaceId}\u0000${claimSk}`;

export const cachedOpenSignal = (workspaceId: string, claimSk: string, now: Date): OpenSignal | undefined => {
  const entry = entries.get(keyOf(workspaceId, claimSk));
  if (!entry) return undefined;
  if (entry.until > now.getTime()) return entry;
  entries.delete(keyOf(workspaceId, claimSk));
  return undefined;
};

export const rememberOpenSignal = (workspaceId: string, claimSk: string, open: OpenSignal, now: Date): void => {
  const key = keyOf(workspaceId, claimSk);
  entries.delete(key);
  entries.set(key, { ...open, until: now.getTime() + TTL_MS });
  if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
};

export const forgetOpenSignal = (workspaceId: string, claimSk: string): void => {
  entries.delete(keyOf(workspaceId, claimSk));
};
