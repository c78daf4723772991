import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { once } from 'node:events';
import { join } from 'node:path';
import { startLocalStack } from '#infra/local/local-stack.ts';

/**
 * A JSON caller of the service at `url` that fails loudly on any answer above 2xx. It speaks plain
 * `node:http` over kept-alive sockets: the load generator shares this machine's two cores with the service
 * it measures, and `fetch` (undici) spent three times its CPU per request, taken from the service.
 */
export const benchCaller = (url: string) => {
  const agent = new Agent({ keepAlive: true });
  const { hostname, port } = new URL(url);
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const call = request(
        {
          agent,
          hostname,
          port,
          method,
          path,
          headers: {
            'content-type': 'application/json',
            ...(payload !== undefined && { 'content-length': Buffer.byteLength(payload) }),
            ...headers,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
          );
          response.on('error', reject);
        },
      );
      call.on('error', reject);
      call.end(payload);
    });
    // A page for people (a confirmation link's answer) is HTML: its text is the answer then.
    const json = (/^\s*[[{]/.test(text) ? JSON.parse(text) : { data: text }) as { data?: any };
    if (status >= 300) throw new Error(`${method} ${path}: ${status} ${text}`);
    return json.data;
  };
};

export type BenchCall = ReturnType<typeof benchCaller>;

/** Limits no bench reaches. */
export const BENCH_RATE_LIMITS = 'global=100000000/1m,login=1000000/1m,email=1000000/1m,apikey=100000000/1m';

/**
 * The local service a bench measures, in `work`, with limits no bench reaches and, unless `workers`, no
 * signal workers (a bench drives what it measures; the storm measures the workers themselves).
 */
export const startBenchService = async (work: string, { workers = false }: { workers?: boolean } = {}) => {
  const stack = await startLocalStack({
    port: 0,
    dataDir: join(work, 'service'),
    workers,
    rateLimits: BENCH_RATE_LIMITS,
  });
  return { stack, call: benchCaller(stack.url) };
};

/** CPU milliseconds a service process has used: all its threads, and its main thread, where the handlers run. */
export interface ServiceCpu {
  total: number;
  handlers: number | undefined;
}

/**
 * The same service in a process of its own (bench/service-process.ts), for throughput: the load the bench
 * generates then runs beside the service, as senders do, instead of on the service's event loop.
 * `cpu()` is the CPU time it has used so far (`handlers` is undefined where there is no /proc); `idle()`
 * resolves once its workers and deliveries are done. `tree` is the source tree whose service runs (another
 * commit's, for the side-by-side bench: bench/commit-tree.ts), this one by default.
 */
export const startBenchServiceProcess = async (
  work: string,
  { workers = false, tree }: { workers?: boolean; tree?: string } = {},
) => {
  // BENCH_PROFILE_DIR=<dir> writes a CPU profile of each of the service's threads there when it stops.
  const profileDir = process.env.BENCH_PROFILE_DIR;
  const profiling = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const driver = tree
    ? join(tree, 'bench', 'service-process.ts')
    : new URL('./service-process.ts', import.meta.url).pathname;
  const child = fork(driver, [work, ...(workers ? ['--workers'] : [])], {
    ...(tree && { cwd: tree }),
    execArgv: ['--import', 'tsx', ...profiling],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [started] = (await once(child, 'message')) as [{ url: string }];
  const cpu = async (): Promise<ServiceCpu> => {
    child.send('cpu');
    const [reply] = (await once(child, 'message')) as [{ cpuMs: number; mainThreadCpuMs?: number }];
    return { total: reply.cpuMs, handlers: reply.mainThreadCpuMs };
  };
  const idle = async (): Promise<void> => {
    child.send('idle');
    await once(child, 'message');
  };
  return {
    call: benchCaller(started.url),
    cpu,
    idle,
    stop: async () => {
      const exited = once(child, 'exit');
      child.send('stop');
      await exited;
    },
  };
};

/** The bench workspace's ADMIN. */
export const BENCH_ADMIN = { email: 'bench@example.com', password: 'benchmark password' };

/** A business registered, verified with the mailed code and signed in: the login's `data`. */
export const signUpBenchAdmin = async (call: BenchCall) => {
  const { email, password } = BENCH_ADMIN;
  await call('POST', '/api/v1/auth/business/register', {
    businessName: 'Bench',
    firstName: 'B',
    lastName: 'M',
    email,
    password,
  });
  const otp = (await call('GET', `/_local/mailbox?to=${email}`))[0].otp as string;
  await call('POST', '/api/v1/auth/verify_email', { email, otp, password });
  return call('POST', '/api/v1/auth/login', { email, password });
};
