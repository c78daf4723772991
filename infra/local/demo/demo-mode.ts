import { readdir, rm } from 'node:fs/promises';
import type { LocalStack } from '../local-stack-shape.ts';
import { IN_MEMORY } from '../saved-queues.ts';
import { type DemoClock, demoClock } from './demo-clock.ts';
import { type DemoWorkspace, seedDemo } from './seed.ts';

/** Where `npm run demo` keeps its data unless DATA_DIR says otherwise; emptied at every demo start. */
const DEMO_DATA_DIR = '.demo-data';

/**
 * Sign-ins and invitation acceptances share one client address's `login` limit (10 in 15 minutes): the
 * seeding spends 8 of them from this machine, the same address the newcomer then signs in from.
 */
const DEMO_RATE_LIMITS = 'login=30/15m';

export interface DemoSettings {
  dataDir: string;
  rateLimits: string;
  /** The service's clock, which the seeding moves through the week it replays. */
  clock: DemoClock;
}

const isEmptyOrAbsent = async (dir: string): Promise<boolean> => {
  try {
    return (await readdir(dir)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
};

/**
 * The demo registers the same people every time, so it needs a table without them: its own directory,
 * emptied, or a DATA_DIR that is `:memory:`, empty or new. It never empties a directory it was given.
 */
export const demoSettings = async (env: NodeJS.ProcessEnv): Promise<DemoSettings> => {
  const dataDir = env.DATA_DIR ?? DEMO_DATA_DIR;
  if (dataDir === DEMO_DATA_DIR) await rm(dataDir, { recursive: true, force: true });
  else if (dataDir !== IN_MEMORY && !(await isEmptyOrAbsent(dataDir))) {
    throw new Error(`The demo fills a new workspace: DATA_DIR must be ${IN_MEMORY}, empty or new (${dataDir} is not)`);
  }
  return { dataDir, rateLimits: env.RATE_LIMITS ?? DEMO_RATE_LIMITS, clock: demoClock() };
};

/**
 * Seeds the demo workspace through the running service's API, then prints how to get in. The seeding's
 * few hundred request logs would bury the credentials, so unless LOG_LEVEL asks otherwise only warnings and
 * errors show until they are printed.
 */
export const printDemo = async (stack: LocalStack, clock: DemoClock): Promise<void> => {
  process.stdout.write(`Filling a demo workspace through ${stack.url} ...\n`);
  const started = Date.now();
  const quiet = process.env.LOG_LEVEL === undefined;
  if (quiet) process.env.LOG_LEVEL = 'warn';
  // Notifications go out before the next moment of the week, as they would have.
  const settled = async () => {
    await stack.workers?.idle();
    await stack.deliveriesIdle();
  };
  const demo = await seedDemo({ baseUrl: stack.url, settled, clock }).finally(() => {
    if (quiet) delete process.env.LOG_LEVEL;
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `Demo workspace ready in ${seconds} s: ${demo.signals} signal deliveries over the past week, incidents in every status.\n${demoAccess(demo)}`,
  );
};

/** How to get in: the web console first (a person opens it), then the API for programs. */
export const demoAccess = (demo: Pick<DemoWorkspace, 'baseUrl' | 'email' | 'password' | 'apiKey'>): string =>
  [
    `  console   ${demo.baseUrl}/  (sign in with the e-mail and password below)`,
    `  base URL  ${demo.baseUrl}/api/v1`,
    `  e-mail    ${demo.email}`,
    `  password  ${demo.password}`,
    `  API key   ${demo.apiKey}`,
    `Try: curl -s ${demo.baseUrl}/api/v1/incident-ticket -H 'x-api-key: ${demo.apiKey}'`,
    '',
  ].join('\n');
