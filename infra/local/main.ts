import { log } from '#lib/log/logger.ts';
import { startLocalStack } from './local-stack.ts';

const port = Number(process.env.PORT ?? 3000);
const dataDir = process.env.DATA_DIR ?? '.data';

const stack = await startLocalStack({
  port,
  dataDir,
  ...(process.env.HOST && { host: process.env.HOST }),
  ...(process.env.RATE_LIMITS && { rateLimits: process.env.RATE_LIMITS }),
  ...(process.env.OAUTH_PROVIDERS && { oauthProviders: process.env.OAUTH_PROVIDERS }),
});
process.stdout.write(`Incident service running at ${stack.url} (data: ${dataDir})\n`);

let stopping = false;
const shutdown = (signal: string): void => {
  if (stopping) {
    log.warn('second signal, exiting without a clean stop', { signal });
    process.exit(1);
  }
  stopping = true;
  log.info('stopping', { signal });
  stack.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      log.error('stop failed', { error });
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
