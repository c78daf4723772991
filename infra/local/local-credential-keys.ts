import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import type { CredentialKeys } from '#lib/ports/credential-keys/credential-keys.ts';

/** The context as KMS binds it: the same pairs in any order give the same bytes. */
const aad = (context: Readonly<Record<string, string>>): Buffer =>
  Buffer.from(JSON.stringify(Object.entries(context).sort(([a], [b]) => a.localeCompare(b))));

const readOrCreateKey = async (file: string | undefined): Promise<Buffer> => {
  if (!file) return randomBytes(32);
  try {
    return Buffer.from(await readFile(file, 'utf8'), 'base64');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const key = randomBytes(32);
    await writeFile(file, key.toString('base64'), { mode: 0o600 });
    return key;
  }
};

/**
 * The local stand-in for the stack's KMS key: a 256-bit master key in the data directory (in memory with
 * `:memory:`), wrapping each data key with AES-256-GCM and the encryption context as authenticated data,
 * so a sealed value opens only with the context it was sealed under, as with KMS.
 */
export const openLocalCredentialKeys = async (file: string | undefined): Promise<CredentialKeys> => {
  const master = await readOrCreateKey(file);
  return {
    async newDataKey(context) {
      const plaintext = randomBytes(32);
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', master, iv).setAAD(aad(context));
      const wrapped = Buffer.concat([iv, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
      return { plaintext, wrapped: wrapped.toString('base64') };
    },
    async unwrap(wrapped, context) {
      const bytes = Buffer.from(wrapped, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', master, bytes.subarray(0, 12)).setAAD(aad(context));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]);
    },
  };
};
