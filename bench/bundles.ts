import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { functionNames } from '#infra/bundling.ts';
import { BUDGET, buildBundle, coldImportMs, FLOOR } from './bundle-sizes.ts';

export interface BundleRow {
  function: string;
  coldKB: number;
  sizeVsFloor: number;
  lazyChunksKB: number;
  importMs: number;
  importVsFloor: number;
  /** For an entry over budget: what it holds beyond the floor, largest first. */
  beyondFloor: string;
}

const kb = (bytes: number): number => Math.round(bytes / 1024);

/**
 * Every function's entry file (with the chunks a cold start loads) against the floor, in size and in cold
 * import time (median of `runs` fresh processes each), built with the same options in the same run.
 */
export const measureBundles = async (runs: number): Promise<BundleRow[]> => {
  const outDir = await mkdtemp(join(tmpdir(), 'bench-bundles-'));
  try {
    const built = await Promise.all([FLOOR, ...functionNames()].map((name) => buildBundle(name, outDir)));
    const floor = built[0]!;
    const importTimes = await coldImportMs(
      built.map((bundle) => bundle.entry),
      runs,
    );
    const floorMs = importTimes[0] ?? Number.NaN;
    return built
      .map((bundle, index) => {
        const ms = importTimes[index] ?? Number.NaN;
        const beyond =
          bundle.coldBytes > BUDGET * floor.coldBytes
            ? [...bundle.coldParts]
                .map(([part, bytes]) => [part, bytes - (floor.coldParts.get(part) ?? 0)] as const)
                .filter(([, bytes]) => bytes >= 1024)
                .sort((a, b) => b[1] - a[1])
                .map(([part, bytes]) => `${part} ${kb(bytes)}`)
                .join(', ')
            : '';
        return {
          function: bundle.name,
          coldKB: kb(bundle.coldBytes),
          sizeVsFloor: Number((bundle.coldBytes / floor.coldBytes).toFixed(2)),
          lazyChunksKB: kb(bundle.lazyChunks.reduce((sum, chunk) => sum + chunk.bytes, 0)),
          importMs: Math.round(ms),
          importVsFloor: Number((ms / floorMs).toFixed(2)),
          beyondFloor: beyond,
        };
      })
      .sort((a, b) => b.coldKB - a.coldKB);
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
};
