import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { signingKeysFrom, type SigningKeys, type StoredSigningKeys } from '#lib/ports/signing-keys/signing-keys.ts';

const generate = (): StoredSigningKeys => ({ kid: 'local-1', secret: randomBytes(48).toString('base64url') });

/**
 * The local stand-in for the stack's Secrets Manager secret, in the same form: created once in the data
 * directory so tokens stay valid across restarts; in memory when there is no directory.
 */
export const openLocalSigningKeys = async (file: string | undefined): Promise<SigningKeys> => {
  let stored: StoredSigningKeys;
  if (!file) {
    stored = generate();
  } else {
    try {
      stored = JSON.parse(await readFile(file, 'utf8')) as StoredSigningKeys;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      stored = generate();
      await writeFile(file, JSON.stringify(stored), { mode: 0o600 });
    }
  }
  return signingKeysFrom(async () => stored);
};
