import { join } from 'node:path';
import { startLocalStack } from '#infra/local/local-stack.ts';

/**
 * The local service a bench measures, in `work`, with limits no bench reaches and no queue workers (a bench
 * drives what it measures), and a JSON caller that fails loudly on any answer above 2xx.
 */
export const startBenchService = async (work: string) => {
  const stack = await startLocalStack({
    port: 0,
    dataDir: join(work, 'service'),
    workers: false,
    rateLimits: 'global=100000000/1m,login=1000000/1m,email=1000000/1m,apikey=100000000/1m',
  });
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${stack.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const json = (await response.json()) as { data?: any };
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  return { stack, call };
};

export type BenchCall = Awaited<ReturnType<typeof startBenchService>>['call'];

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
