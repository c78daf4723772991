import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SigningKeys } from '#lib/ports/signing-keys/signing-keys.ts';

/**
 * The MAC key is derived from the token-signing key with the value's purpose, so a value signed for one
 * purpose (an acknowledge link, an OAuth state) never passes for another's or for an access token, and no
 * second secret has to be kept and rotated.
 */
const macOf = (secret: Uint8Array, purpose: string, payload: string): Buffer =>
  createHmac('sha256', createHmac('sha256', secret).update(purpose).digest()).update(payload).digest();

/** A JSON value signed for `purpose`: `<payload>.<kid>.<mac>`, all base64url, safe in a URL path or query. */
export const signPayload = async (keys: SigningKeys, purpose: string, value: unknown): Promise<string> => {
  const key = await keys.current();
  const payload = Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${payload}.${key.kid}.${macOf(key.secret, purpose, payload).toString('base64url')}`;
};

/**
 * The value signed for `purpose` if its MAC holds under the current or the previous key; undefined for
 * anything forged, altered or malformed. What the value must hold is the caller's to check.
 */
export const verifyPayload = async (keys: SigningKeys, purpose: string, raw: string): Promise<unknown> => {
  const [payload, kid, signature, ...rest] = raw.split('.');
  if (!payload || !kid || !signature || rest.length > 0) return undefined;
  const key = await keys.find(kid);
  if (!key) return undefined;
  const expected = macOf(key.secret, purpose, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
};
