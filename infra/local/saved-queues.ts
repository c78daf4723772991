import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { log } from '#lib/log/logger.ts';
import type { LocalSqs } from './sqs-server.ts';

/** The data directory that keeps nothing. */
export const IN_MEMORY = ':memory:';

/**
 * SQS keeps messages in memory only, so a clean stop saves what is still queued (dead-letter queues
 * included) and the next start sends it again.
 */
export const savedQueuesFile = (dataDir: string): string | undefined =>
  dataDir === IN_MEMORY ? undefined : join(dataDir, 'queues.json');

export const saveQueues = async (sqs: LocalSqs, file: string | undefined): Promise<number | undefined> => {
  if (!file) return undefined;
  const saved = await sqs.snapshot();
  await writeFile(file, JSON.stringify(saved));
  if (saved.inFlightNotSaved > 0) log.warn('in-flight messages could not be saved', { count: saved.inFlightNotSaved });
  return Object.values(saved.queues).reduce((count, messages) => count + messages.length, 0);
};

export const restoreQueues = async (sqs: LocalSqs, file: string | undefined): Promise<void> => {
  if (!file) return;
  try {
    await sqs.restore(JSON.parse(await readFile(file, 'utf8')));
    await rm(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
};
