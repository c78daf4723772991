import { fork } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { startLocalStack } from '#infra/local/local-stack.ts';

/** A JSON caller of the service at `url` that fails loudly on any answer above 2xx. */
export const benchCaller =
  (url: string) =>
  async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const json = (await response.json()) as { data?: any };
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json.data;
  };

export type BenchCall = ReturnType<typeof benchCaller>;

/**
 * The local service a bench measures, in `work`, with limits no bench reaches and no signal workers (a
 * bench drives what it measures).
 */
export const startBenchService = async (work: string) => {
  const stack = await startLocalStack({
    port: 0,
    dataDir: join(work, 'service'),
    workers: false,
    rateLimits: 'global=100000000/1m,login=1000000/1m,email=1000000/1m,apikey=100000000/1m',
  });
  return { stack, call: benchCaller(stack.url) };
};

/**
 * The same service in a process of its own (bench/service-process.ts), for throughput: the load the bench
 * generates then runs beside the service, as senders do, instead of on the service's event loop.
 * `cpuMs()` is the CPU time the service process (its store thread included) has used so far.
 */
export const startBenchServiceProcess = async (work: string) => {
  const child = fork(new URL('./service-process.ts', import.meta.url).pathname, [work], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [started] = (await once(child, 'message')) as [{ url: string }];
  const ask = async (): Promise<number> => {
    child.send('cpu');
    const [reply] = (await once(child, 'message')) as [{ cpuMs: number }];
    return reply.cpuMs;
  };
  return {
    call: benchCaller(started.url),
    cpuMs: ask,
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
  await call('POST', '/api/v1/auth/verify_email', { email, otp });
  return call('POST', '/api/v1/auth/login', { email, password });
};
