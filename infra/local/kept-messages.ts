import { appendFile, readFile, rename, writeFile } from 'node:fs/promises';

/**
 * How many messages the local mailbox and SMS outbox keep: the newest, so a stack that runs for days
 * (pages, notifications, sign-up codes) stays the same size in memory and on disk.
 */
export const KEPT_MESSAGES = 1_000;

/** Messages kept newest last, at most `limit`, in memory and in `file` (JSON lines) when there is one. */
export interface KeptMessages<T> {
  add(message: T): Promise<void>;
  /** The kept messages that `matches` takes, newest first. */
  newestFirst(matches: (message: T) => boolean): T[];
}

/**
 * Opens the kept messages of `file` (the newest `limit` of what an earlier run saved). The file takes each
 * message as a line at once; once it holds twice `limit` lines it is rewritten with the kept ones, so it
 * stays within twice the limit without rewriting on every message.
 */
export const openKeptMessages = async <T>(
  file: string | undefined,
  limit = KEPT_MESSAGES,
): Promise<KeptMessages<T>> => {
  const saved = file ? await readSaved<T>(file) : [];
  const messages = saved.slice(-limit);
  let linesInFile = saved.length;
  let unsaved: T[] = [];
  // One write at a time, each taking every message not yet written, so a rewrite never races an append.
  let writing: Promise<void> = Promise.resolve();
  const write = async (target: string): Promise<void> => {
    const batch = unsaved;
    unsaved = [];
    if (batch.length === 0) return;
    const lines = (some: readonly T[]) => some.map((one) => `${JSON.stringify(one)}\n`).join('');
    if (linesInFile + batch.length <= 2 * limit) {
      await appendFile(target, lines(batch));
      linesInFile += batch.length;
      return;
    }
    // Everything added so far is in the file or in this batch: the kept ones replace them all.
    const kept = [...messages];
    await writeFile(`${target}.new`, lines(kept));
    await rename(`${target}.new`, target);
    linesInFile = kept.length;
  };
  return {
    async add(message) {
      messages.push(message);
      if (messages.length > limit) messages.splice(0, messages.length - limit);
      if (!file) return;
      unsaved.push(message);
      // A failed write fails its own add (the worker tries the message again), not the ones after it.
      writing = writing.catch(() => undefined).then(() => write(file));
      await writing;
    },
    newestFirst(matches) {
      return messages.filter(matches).reverse();
    },
  };
};

const readSaved = async <T>(file: string): Promise<T[]> => {
  try {
    return (await readFile(file, 'utf8'))
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as T);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
};
