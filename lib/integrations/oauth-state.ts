import type { SigningKeys } from '#lib/ports/signing-keys/signing-keys.ts';
import { signPayload, verifyPayload } from '#lib/identity/signed-payload.ts';
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

/** The purpose the state's MAC key is derived for (lib/identity/signed-payload.ts). */
const PURPOSE = 'integration-oauth-state';

/** `<payload>.<kid>.<mac>`, all base64url: opaque to the provider, which only hands it back. */
export const signState = (keys: SigningKeys, state: OAuthState): Promise<string> => signPayload(keys, PURPOSE, state);

/** The state if its MAC holds under a current or previous key; undefined for anything forged or malformed. */
export const verifyState = async (keys: SigningKeys, raw: string): Promise<OAuthState | undefined> => {
  const state = await verifyPayload(keys, PURPOSE, raw);
  return typeof state === 'object' && state !== null ? (state as OAuthState) : undefined;
};
