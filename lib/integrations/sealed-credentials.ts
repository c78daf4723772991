import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { CredentialKeys } from '#lib/ports/credential-keys/credential-keys.ts';

/**
 * Envelope encryption of a secret value: a fresh AES-256-GCM data key per value, itself wrapped by the
 * master key (KMS in AWS) under an encryption context naming the workspace and the item. The table holds
 * only `v1.<wrapped key>.<iv>.<tag>.<ciphertext>`; opening it needs the master key and the same context.
 */
const VERSION = 'v1';

export type SealContext = Readonly<Record<string, string>>;

export const sealSecret = async (keys: CredentialKeys, context: SealContext, plaintext: string): Promise<string> => {
  const dataKey = await keys.newDataKey(context);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', dataKey.plaintext, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  dataKey.plaintext.fill(0);
  return [
    VERSION,
    dataKey.wrapped,
    iv.toString('base64'),
    cipher.getAuthTag().toString('base64'),
    ciphertext.toString('base64'),
  ].join('.');
};

export const openSecret = async (keys: CredentialKeys, context: SealContext, sealed: string): Promise<string> => {
  const [version, wrapped, iv, tag, ciphertext] = sealed.split('.');
  if (version !== VERSION || !wrapped || !iv || !tag || ciphertext === undefined) {
    throw new Error('not a sealed value of this service');
  }
  const key = await keys.unwrap(wrapped, context);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  const plaintext = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]);
  key.fill(0);
  return plaintext.toString('utf8');
};
