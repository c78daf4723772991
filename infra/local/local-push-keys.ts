import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { pushKeysFrom, type PushKeys, type StoredPushKeys } from '#lib/ports/push-keys/push-keys.ts';

const generate = (): StoredPushKeys => ({ seed: randomBytes(48).toString('base64url') });

/**
 * The local stand-in for the stack's VAPID secret, in the same form: generated once in the data directory, so
 * browsers subscribed to the local console stay subscribed across restarts; in memory when there is no directory.
 */
export const openLocalPushKeys = async (file: string | undefined): Promise<PushKeys> => {
  let stored: StoredPushKeys;
  if (!file) {
    stored = generate();
  } else {
    try {
      stored = JSON.parse(await readFile(file, 'utf8')) as StoredPushKeys;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      stored = generate();
      await writeFile(file, JSON.stringify(stored), { mode: 0o600 });
    }
  }
  return pushKeysFrom(async () => stored);
};
