import { createHash } from 'node:crypto';
import { workspaceKey } from '#lib/store/keys.ts';
import type { Table } from '#lib/store/table.ts';
import { deleteIf, putIfAbsent, updateIf } from '#lib/store/conditional-writes.ts';
import { sourceKeyOf } from './signal-item.ts';
import { findItem } from '#lib/store/items.ts';

/**
 * FINGERPRINT_CLAIM (docs/data-model.md 5.7): names the open (OPEN, ACKNOWLEDGED or SUPPRESSED) signal of a
 * source, event type and fingerprint. Creating it is the single conditional write that makes concurrent
 * deliveries of one event create one signal. The fingerprint is hashed: it is readable and unbounded.
 */
export interface FingerprintIdentity {
  source: string;
  type: string;
  fingerprint: string;
}

export interface FingerprintClaim {
  signalId: string;
  claimedAt: string;
  /** The delivery mark of the attempt that claimed it, when the sender gave an id. */
  delivery?: string;
}

export const fingerprintClaimKey = (workspaceId: string, { source, type, fingerprint }: FingerprintIdentity) => ({
  pk: workspaceKey(workspaceId, 'FP'),
  sk: [sourceKeyOf(source), sourceKeyOf(type), createHash('sha256').update(fingerprint).digest('hex')].join('#'),
});

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const fingerprintClaimRepository = (table: Table, workspaceId: string) => {
  /** Claims the fingerprint for a new signal; false when another signal holds it. */
  const putFingerprintClaim = async (identity: FingerprintIdentity, claim: FingerprintClaim): Promise<boolean> => {
    return putIfAbsent(table, {
      ...fingerprintClaimKey(workspaceId, identity),
      type: 'FINGERPRINT_CLAIM',
      workspaceId,
      ...claim,
    });
  };

  const findFingerprintClaim = async (identity: FingerprintIdentity): Promise<FingerprintClaim | undefined> => {
    return findItem(table, fingerprintClaimKey(workspaceId, identity), (item) => ({
      signalId: item.signalId as string,
      claimedAt: item.claimedAt as string,
      ...(typeof item.delivery === 'string' && { delivery: item.delivery }),
    }));
  };

  /** Continues a claim whose attempt outlived its lease; false when another attempt took it over first. */
  const takeOverFingerprintClaim = async (identity: FingerprintIdentity, seen: string, now: string) => {
    const taken = await updateIf(table, fingerprintClaimKey(workspaceId, identity), {
      UpdateExpression: 'SET claimedAt = :now',
      ConditionExpression: 'claimedAt = :seen',
      ExpressionAttributeValues: { ':now': now, ':seen': seen },
    });
    return taken !== undefined;
  };

  /** Releases the claim only while it still names `signalId`, so a newer claim is never removed. */
  const releaseFingerprintClaim = async (identity: FingerprintIdentity, signalId: string): Promise<void> => {
    await deleteIf(table, fingerprintClaimKey(workspaceId, identity), {
      ConditionExpression: 'signalId = :signalId',
      ExpressionAttributeValues: { ':signalId': signalId },
    });
  };
  return { putFingerprintClaim, findFingerprintClaim, takeOverFingerprintClaim, releaseFingerprintClaim };
};
