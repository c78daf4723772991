/** A fresh data key: the plaintext to encrypt one value with, and its wrapped form stored beside it. */
interface DataKey {
  plaintext: Buffer;
  wrapped: string;
}

/**
 * The master key of stored third-party credentials (envelope encryption): it hands out data keys and
 * unwraps them again, bound to a context (the workspace and the credential) that must match on both
 * sides, so a sealed value copied to another workspace's item does not open. KMS in AWS, a key file in
 * the data directory locally.
 */
export interface CredentialKeys {
  newDataKey(context: Readonly<Record<string, string>>): Promise<DataKey>;
  unwrap(wrapped: string, context: Readonly<Record<string, string>>): Promise<Buffer>;
}
