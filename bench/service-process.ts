import { startBenchService } from './bench-service.ts';

/**
 * The bench service as a process of its own (startBenchServiceProcess): it reports its URL, answers `cpu`
 * with the CPU time it has used, and stops cleanly on `stop`.
 */
process.env.LOG_LEVEL ??= 'silent';
const work = process.argv[2];
if (!work) throw new Error('usage: service-process.ts <work directory>');
const { stack } = await startBenchService(work);
const send = (message: object) => process.send?.(message);
process.on('message', async (message) => {
  if (message === 'cpu') {
    const { user, system } = process.cpuUsage();
    send({ cpuMs: (user + system) / 1000 });
    return;
  }
  await stack.stop();
  process.exit(0);
});
send({ url: stack.url });
