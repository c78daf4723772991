import { readFile } from 'node:fs/promises';
import { startBenchService } from './bench-service.ts';

/**
 * The bench service as a process of its own (startBenchServiceProcess): it reports its URL, answers `cpu`
 * with the CPU time it has used (all its threads, and its main thread, which runs the handlers), `idle`
 * once its workers and deliveries have nothing left to do, and stops cleanly on `stop`. It imports nothing
 * of the bench but bench-service.ts, so the side-by-side bench runs this same file in another commit's tree.
 */
process.env.LOG_LEVEL ??= 'silent';
const work = process.argv[2];
if (!work) throw new Error('usage: service-process.ts <work directory> [--workers]');
const { stack } = await startBenchService(work, { workers: process.argv.includes('--workers') });
const send = (message: object) => process.send?.(message);

/** Linux's clock ticks per second (USER_HZ), the unit of a thread's times in /proc. */
const TICKS_PER_SECOND = 100;

/**
 * CPU milliseconds of this process's main thread, from its /proc entry (fields 14 and 15: user and system
 * ticks); node has no per-thread CPU call before v23. Undefined where there is no /proc.
 */
const mainThreadCpuMs = async (): Promise<number | undefined> => {
  try {
    const stat = await readFile(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
};

process.on('message', async (message) => {
  if (message === 'cpu') {
    const { user, system } = process.cpuUsage();
    send({ cpuMs: (user + system) / 1000, mainThreadCpuMs: await mainThreadCpuMs() });
    return;
  }
  if (message === 'idle') {
    await stack.workers?.idle();
    await stack.deliveriesIdle();
    send({ idle: true });
    return;
  }
  await stack.stop();
  process.exit(0);
});
send({ url: stack.url });
