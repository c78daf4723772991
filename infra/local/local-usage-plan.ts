import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import type { LimitWindow } from '#lib/ports/rate-limits.ts';
import type { UsagePlan, UsagePlanKey } from '#lib/ports/usage-plan/usage-plan.ts';

interface MirroredKey extends UsagePlanKey {
  mirrorId: string;
}

/** The gateway's verdict on a request's usage-plan key, as API Gateway gives it. */
type Admission =
  | { kind: 'admitted'; limit?: number; remaining?: number; resetSeconds?: number }
  | { kind: 'invalidKey' }
  | { kind: 'throttled'; limit: number; resetSeconds: number };

export interface LocalUsagePlan extends UsagePlan {
  /** The mirrors of a key (our key id), in the order they were registered. */
  mirrorsOf(keyId: string): MirroredKey[];
  /**
   * Counts a request under the usage-plan key the authorizer named: the shared unkeyed key passes, an
   * enabled mirror passes within its window, anything else is refused as the gateway refuses it.
   */
  admit(usageKey: string, now: Date): Admission;
}

export interface LocalUsagePlanOptions {
  /** Where the mirrors are kept (JSON); in memory when absent. They hold hashes, never key values. */
  file: string | undefined;
  /** The per-key limit of the plan: the `apikey` limiter's setting, which the stack's plan is built from. */
  perKey: () => LimitWindow;
  unkeyedUsageKey: string;
}

const readSaved = async (file: string | undefined): Promise<MirroredKey[]> => {
  if (!file) return [];
  try {
    return JSON.parse(await readFile(file, 'utf8')) as MirroredKey[];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
};

/**
 * The usage plan locally, where the local gateway enforces it as API Gateway does in AWS: the mirrors
 * with their values (hashes of the keys' secrets) and enabled flags, kept under `DATA_DIR` so keys keep
 * working across restarts. The per-key limit is counted in a fixed window of the `apikey` setting (100 a
 * minute by default): the 101st request of a minute is refused. API Gateway's throttle is a token bucket
 * built from the same setting (docs/security.md, "Rate limits"), which refuses the 101st request of a
 * burst the same way.
 */
export const openLocalUsagePlan = async ({
  file,
  perKey,
  unkeyedUsageKey,
}: LocalUsagePlanOptions): Promise<LocalUsagePlan> => {
  const mirrors = new Map((await readSaved(file)).map((mirror) => [mirror.mirrorId, mirror]));
  const windows = new Map<string, { start: number; hits: number }>();
  const save = async (): Promise<void> => {
    if (file) await writeFile(file, JSON.stringify([...mirrors.values()]), { mode: 0o600 });
  };
  const enabledMirror = (value: string): MirroredKey | undefined =>
    [...mirrors.values()].find((mirror) => mirror.value === value && mirror.enabled);

  return {
    async register(key) {
      const mirrorId = `local-${randomUUID()}`;
      mirrors.set(mirrorId, { ...key, mirrorId });
      await save();
      return mirrorId;
    },
    async setEnabled(mirrorId, enabled) {
      const mirror = mirrors.get(mirrorId);
      if (!mirror) return false;
      mirror.enabled = enabled;
      await save();
      return true;
    },
    async remove(mirrorId) {
      mirrors.delete(mirrorId);
      windows.delete(mirrorId);
      await save();
    },
    mirrorsOf(keyId) {
      return [...mirrors.values()].filter((mirror) => mirror.id === keyId).map((mirror) => ({ ...mirror }));
    },
    admit(usageKey, now) {
      if (usageKey === unkeyedUsageKey) return { kind: 'admitted' };
      const mirror = enabledMirror(usageKey);
      if (!mirror) return { kind: 'invalidKey' };
      const { limit, windowSeconds } = perKey();
      const nowSeconds = Math.floor(now.getTime() / 1000);
      const start = nowSeconds - (nowSeconds % windowSeconds);
      const resetSeconds = start + windowSeconds - nowSeconds;
      const window = windows.get(mirror.mirrorId);
      const current = window && window.start === start ? window : { start, hits: 0 };
      if (current.hits >= limit) return { kind: 'throttled', limit, resetSeconds };
      current.hits += 1;
      windows.set(mirror.mirrorId, current);
      return { kind: 'admitted', limit, remaining: limit - current.hits, resetSeconds };
    },
  };
};
