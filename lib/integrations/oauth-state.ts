import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SigningKeys } from '#lib/ports/signing-keys/signing-keys.ts';
import type { OAuthIntegration } from '#lib/ports/integration-providers/integration-providers.ts';

/** A person has this long to approve the connection at the provider. */
export const STATE_LIFETIME_MS = 10 * 60 * 1000;

/** What a `state` binds: who started the connection, where, for which provider, and until when. */
export interface OAuthState {
  stateId: string;
  workspaceId: string;
  userId: string;
  integration: OAuthIntegration;
  expiresAt: string;
}

/**
 * The MAC key of states is derived from the token-signing key, so a state can never be mistaken for an
 * access token (or the reverse) and no second secret has to be kept and rotated.
 */
const stateKey = (secret: Uint8Array): Buffer =>
  createHmac('sha256', secret).update('integration-oauth-state').digest();

const mac = (secret: Uint8Array, payload: string): Buffer =>
  createHmac('sha256', stateKey(secret)).update(payload).digest();

/** `<payload>.<kid>.<mac>`, all base64url: opaque to the provider, which only hands it back. */
export const signState = async (keys: SigningKeys, state: OAuthState): Promise<string> => {
  const key = await keys.current();
  const payload = Buffer.from(JSON.stringify(state)).toString('base64url');
  return `${payload}.${key.kid}.${mac(key.secret, payload).toString('base64url')}`;
};

/** The state if its MAC holds under a current or previous key; undefined for anything forged or malformed. */
export const verifyState = async (keys: SigningKeys, raw: string): Promise<OAuthState | undefined> => {
  const [payload, kid, signature, ...rest] = raw.split('.');
  if (!payload || !kid || !signature || rest.length > 0) return undefined;
  const key = await keys.find(kid);
  if (!key) return undefined;
  const expected = mac(key.secret, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as OAuthState;
  } catch {
    return undefined;
  }
};
