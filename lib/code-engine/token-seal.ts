import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { SigningKey, SigningKeys } from '#lib/ports/signing-keys/signing-keys.ts';

/** A secret as stored: AES-256-GCM under a key derived from a signing key, named by its key id. */
export interface SealedSecret {
  kid: string;
  iv: string;
  data: string;
  tag: string;
}

const PURPOSE = 'incident-service code-engine token v1';

/**
 * A key of its own for sealing, derived (HKDF) from the signing key, so the two uses never share key
 * material; no further secret or KMS key to provision.
 */
const sealingKey = (key: SigningKey): Buffer =>
  Buffer.from(hkdfSync('sha256', key.secret, Buffer.alloc(0), PURPOSE, 32));

/** Bound to its workspace (the additional data): a sealed token copied into another workspace does not open. */
export const sealSecret = async (keys: SigningKeys, workspaceId: string, secret: string): Promise<SealedSecret> => {
  const key = await keys.current();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(key), iv).setAAD(Buffer.from(workspaceId));
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return {
    kid: key.kid,
    iv: iv.toString('base64'),
    data: data.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
  };
};

/** The secret, or undefined when its signing key was rotated out (the current and the previous one open). */
export const openSecret = async (
  keys: SigningKeys,
  workspaceId: string,
  sealed: SealedSecret,
): Promise<string | undefined> => {
  const key = await keys.find(sealed.kid);
  if (!key) return undefined;
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(key), Buffer.from(sealed.iv, 'base64'))
    .setAAD(Buffer.from(workspaceId))
    .setAuthTag(Buffer.from(sealed.tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
};
