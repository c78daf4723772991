import { signPayload, verifyPayload } from '#lib/identity/signed-payload.ts';
import type { SigningKeys } from '#lib/ports/signing-keys/signing-keys.ts';

/** How long a confirmation link works: a week, like an invitation (docs/decisions.md). */
export const CONFIRMATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** What a confirmation link confirms: one address for one workspace, until `expiresAt`. */
export interface AddressConfirmation {
  workspaceId: string;
  address: string;
  expiresAt: string;
}

/** The purpose its MAC key is derived for: no acknowledge link or other token passes for one. */
const PURPOSE = 'outside-address-confirmation';

/** `<payload>.<kid>.<mac>`, base64url: the request log redacts it wherever it stands in a path. */
export const signConfirmation = (keys: SigningKeys, { workspaceId, address, expiresAt }: AddressConfirmation) =>
  signPayload(keys, PURPOSE, { w: workspaceId, a: address, x: expiresAt });

/** The confirmation if its MAC holds; undefined for anything forged, altered or malformed. Expiry is the caller's. */
export const verifyConfirmation = async (keys: SigningKeys, raw: string): Promise<AddressConfirmation | undefined> => {
  const value = (await verifyPayload(keys, PURPOSE, raw)) as Record<string, unknown> | undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  const { w, a, x } = value;
  if (typeof w !== 'string' || typeof a !== 'string' || typeof x !== 'string') return undefined;
  return { workspaceId: w, address: a, expiresAt: x };
};
