import { randomUUID } from 'node:crypto';
import type { UsagePlan, UsagePlanKey } from '#lib/ports/usage-plan/usage-plan.ts';

export interface MirroredKey extends UsagePlanKey {
  mirrorId: string;
}

export interface LocalUsagePlan extends UsagePlan {
  /** The mirrors of a key (our key id), in the order they were registered. */
  mirrorsOf(keyId: string): MirroredKey[];
}

/**
 * The usage plan locally, where there is no API Gateway: the mirrored keys, their values and enabled
 * flags are kept in memory, so the service registers, disables and removes them exactly as in AWS, but
 * the local HTTP server does not consult them. Locally, per-key throttling is done by the service's own
 * per-key limiter (the `apikey` limiter of `lib/http/middlewares/rate-limit.ts`), which runs in AWS too.
 * Nothing is persisted: raw key values are not written to disk, and after a restart the mirrors of older
 * keys are missing, which `setEnabled` reports as it would for a gateway key deleted by hand.
 */
export const createLocalUsagePlan = (): LocalUsagePlan => {
  const mirrors = new Map<string, MirroredKey>();
  return {
    async register(key) {
      const mirrorId = `local-${randomUUID()}`;
      mirrors.set(mirrorId, { ...key, mirrorId });
      return mirrorId;
    },
    async setEnabled(mirrorId, enabled) {
      const mirror = mirrors.get(mirrorId);
      if (!mirror) return false;
      mirror.enabled = enabled;
      return true;
    },
    async remove(mirrorId) {
      mirrors.delete(mirrorId);
    },
    mirrorsOf(keyId) {
      return [...mirrors.values()].filter((mirror) => mirror.id === keyId).map((mirror) => ({ ...mirror }));
    },
  };
};
