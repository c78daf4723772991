import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { functionNames } from '#infra/bundling.ts';
import { BUDGET, buildBundle, coldImportMs, FLOOR } from './bundle-sizes.ts';

/**
 * `npm run bench:bundles`: every function's entry file against the floor, in size and in cold import
 * time (median of BENCH_IMPORT_RUNS fresh processes, 9 by default), with its chunks and, for an entry
 * over budget, what it holds beyond the floor. Figures go to docs/performance.md with this command.
 */
const RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 9);
const outDir = await mkdtemp(join(tmpdir(), 'bench-bundles-'));
const kb = (bytes: number): string => (bytes / 1024).toFixed(0);

try {
  const names = [FLOOR, ...functionNames()];
  const built = await Promise.all(names.map((name) => buildBundle(name, outDir)));
  const floor = built[0]!;
  const importTimes = await coldImportMs(
    built.map((bundle) => bundle.entry),
    RUNS,
  );
  const msOf = new Map(built.map((bundle, index) => [bundle, importTimes[index] ?? Number.NaN]));
  const floorMs = msOf.get(floor) ?? Number.NaN;
  console.log('function                 cold KB  x floor  lazy chunks KB  import ms  x floor');
  for (const bundle of built.sort((a, b) => b.coldBytes - a.coldBytes)) {
    const ms = msOf.get(bundle) ?? Number.NaN;
    const chunkBytes = bundle.lazyChunks.reduce((sum, chunk) => sum + chunk.bytes, 0);
    const chunks = bundle.lazyChunks.length > 0 ? `${kb(chunkBytes)} (${bundle.lazyChunks.length})` : '-';
    console.log(
      `${bundle.name.padEnd(20)}  ${kb(bundle.coldBytes).padStart(8)}  ${(bundle.coldBytes / floor.coldBytes).toFixed(2).padStart(7)}` +
        `  ${chunks.padStart(14)}  ${ms.toFixed(0).padStart(9)}  ${(ms / floorMs).toFixed(2).padStart(7)}`,
    );
    if (bundle.coldBytes > BUDGET * floor.coldBytes) {
      const beyond = [...bundle.coldParts]
        .map(([part, bytes]) => [part, bytes - (floor.coldParts.get(part) ?? 0)] as const)
        .filter(([, bytes]) => bytes >= 1024)
        .sort((a, b) => b[1] - a[1])
        .map(([part, bytes]) => `${part} ${kb(bytes)}`);
      console.log(`${''.padEnd(22)}beyond the floor: ${beyond.join(', ')}`);
    }
  }
} finally {
  await rm(outDir, { recursive: true, force: true });
}
