import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { lambdaContext } from '#infra/local/lambda-context.ts';
import { recordSdkCalls, type SdkCall } from './iam/sdk-calls.ts';

/**
 * Runs in a child process with only the environment a function has in Lambda: imports one built bundle,
 * as the Lambda runtime does at cold start, then calls its handler with each event the parent sends.
 * Bundled by esbuild like the functions, so it runs on plain node. It reports to the parent every SDK command
 * the bundle's clients send and every environment variable the bundle reads, for the least-privilege proof.
 */
export interface Invocation {
  id: number;
  event: unknown;
}

export type ChildMessage =
  | { kind: 'ready' }
  | { kind: 'importFailed'; error: string }
  | { kind: 'result'; id: number; result: unknown }
  | { kind: 'failed'; id: number; error: string }
  | { kind: 'sdkCall'; call: SdkCall }
  | { kind: 'envRead'; name: string };

const send = (message: ChildMessage): void => {
  process.send?.(message);
};

const [bundlePath = '', functionName = 'function'] = process.argv.slice(2);
const describe = (error: unknown): string => (error instanceof Error ? (error.stack ?? error.message) : String(error));

recordSdkCalls((call) => send({ kind: 'sdkCall', call }));

/** Each variable's first read, whether at import or in a handler: reading is what makes a variable needed. */
const read = new Set<string>();
process.env = new Proxy(process.env, {
  get(variables, name) {
    if (typeof name === 'string' && !read.has(name)) {
      read.add(name);
      send({ kind: 'envRead', name });
    }
    return variables[name as string];
  },
});

try {
  const { handler } = (await import(pathToFileURL(bundlePath).href)) as {
    handler: (event: unknown, context: unknown) => Promise<unknown>;
  };
  process.on('message', ({ id, event }: Invocation) => {
    handler(event, lambdaContext(functionName, randomUUID(), 15_000)).then(
      (result) => send({ kind: 'result', id, result }),
      (error: unknown) => send({ kind: 'failed', id, error: describe(error) }),
    );
  });
  send({ kind: 'ready' });
} catch (error) {
  send({ kind: 'importFailed', error: describe(error) });
}
