import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { inject } from 'vitest';
import { OUTPUT_FILE } from '#infra/bundling.ts';
import { RUNNER } from '../setup/build-bundles.ts';
import type { ChildMessage, Invocation } from './bundle-child.ts';
import type { SdkCall } from './iam/sdk-calls.ts';

export interface BuiltBundles {
  /** The built `index.mjs` of a function. */
  path(name: string): string;
  runner: string;
}

/** The bundles the global setup built for this run (test/setup/build-bundles.ts). */
export const builtBundles = (): BuiltBundles => {
  const outDir = inject('bundlesDir');
  return { path: (name) => join(outDir, name, OUTPUT_FILE), runner: join(outDir, RUNNER, OUTPUT_FILE) };
};

export interface RunningBundle {
  name: string;
  /** Calls the handler with one event; rejects when the handler throws. */
  invoke(event: unknown): Promise<unknown>;
  /** What the function wrote to stdout and stderr (its log lines), for a failure's message. */
  output(): string;
  /** Every command the bundle's SDK clients sent, in order. */
  sdkCalls: readonly SdkCall[];
  /** Every environment variable the bundle read, at import or since. */
  envRead: ReadonlySet<string>;
  stop(): Promise<void>;
}

const OUTPUT_KEPT = 20_000;

/**
 * One function's bundle imported in a child process whose environment is exactly `env`, nothing inherited,
 * as Lambda gives a function only what its configuration sets. Resolves once the import succeeded.
 */
export const startBundle = async (
  bundles: BuiltBundles,
  name: string,
  env: Record<string, string>,
): Promise<RunningBundle> => {
  const child: ChildProcess = fork(bundles.runner, [bundles.path(name), name], {
    env,
    execArgv: [],
    cwd: join(bundles.path(name), '..'),
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEPT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const sdkCalls: SdkCall[] = [];
  const envRead = new Set<string>();
  const pending = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();
  let nextId = 0;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  await new Promise<void>((resolve, reject) => {
    child.on('message', (message: ChildMessage) => {
      if (message.kind === 'sdkCall') sdkCalls.push(message.call);
      else if (message.kind === 'envRead') envRead.add(message.name);
      else if (message.kind === 'ready') resolve();
      else if (message.kind === 'importFailed') reject(new Error(`${name}: import failed: ${message.error}`));
      else {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.kind === 'result') waiter?.resolve(message.result);
        else waiter?.reject(new Error(`${name}: handler threw: ${message.error}`));
      }
    });
    child.once('exit', (code) => {
      const error = new Error(`${name}: the process exited (${code}): ${output}`);
      reject(error);
      for (const waiter of pending.values()) waiter.reject(error);
    });
  });

  return {
    name,
    invoke: (event) =>
      new Promise((resolve, reject) => {
        const id = (nextId += 1);
        pending.set(id, { resolve, reject });
        child.send({ id, event } satisfies Invocation);
      }),
    output: () => output,
    sdkCalls,
    envRead,
    stop: async () => {
      child.kill();
      await exited;
    },
  };
};
