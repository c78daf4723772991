import '#infra/local/quiet-sdk-notice.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureAlertStorm } from './alert-storm.ts';
import { printAlertStorm, STORM_SHAPE, STEADY_RATE } from './storm-shape.ts';

/**
 * `npx tsx bench/storm.ts`: the alert storm of `npm run bench` alone (docs/performance.md, "Paging in an
 * alert storm"), for repeated runs. BENCH_SCALE scales the number of services.
 */
process.env.LOG_LEVEL ??= 'silent';
const work = await mkdtemp(join(tmpdir(), 'incident-storm-'));
try {
  printAlertStorm(await measureAlertStorm(join(work, 'storm'), STORM_SHAPE, STEADY_RATE));
} finally {
  await rm(work, { recursive: true, force: true });
}
