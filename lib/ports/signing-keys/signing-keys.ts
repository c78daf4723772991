/** A secret that signs tokens, named by the key id tokens carry in their header. */
export interface SigningKey {
  kid: string;
  secret: Uint8Array;
}

/**
 * The token-signing keys. New tokens are signed with the current key; tokens signed with the previous
 * one still verify, so a rotation does not sign everybody out.
 */
export interface SigningKeys {
  current(): Promise<SigningKey>;
  find(kid: string): Promise<SigningKey | undefined>;
}

/** The stored form, the same in Secrets Manager and in the local data directory. */
export interface StoredSigningKeys {
  kid: string;
  secret: string;
  previous?: { kid: string; secret: string };
}

const toKey = ({ kid, secret }: { kid: string; secret: string }): SigningKey => ({
  kid,
  secret: new TextEncoder().encode(secret),
});

export const signingKeysFrom = (load: () => Promise<StoredSigningKeys>): SigningKeys => ({
  async current() {
    return toKey(await load());
  },
  async find(kid) {
    const stored = await load();
    const match = [stored, stored.previous].find((key) => key?.kid === kid);
    return match && toKey(match);
  },
});
