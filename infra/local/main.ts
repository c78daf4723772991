import './quiet-sdk-notice.ts';
import { log } from '#lib/log/logger.ts';
import { demoSettings, printDemo } from './demo/demo-mode.ts';
import { startLocalStack } from './local-stack.ts';
import type { StopReport } from './local-stack-shape.ts';

const port = Number(process.env.PORT ?? 3000);
const demo = process.argv.includes('--demo') ? await demoSettings(process.env) : undefined;
const dataDir = demo?.dataDir ?? process.env.DATA_DIR ?? '.data';
const rateLimits = demo?.rateLimits ?? process.env.RATE_LIMITS;

/** A whole number of seconds, at least 1: short enough for trying escalation out, as README shows. */
const slaSweepSeconds = (value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 1) {
    throw new Error(`SLA_SWEEP_SECONDS must be a whole number of seconds, at least 1, got "${value}"`);
  }
  return seconds;
};
const sweepSeconds = slaSweepSeconds(process.env.SLA_SWEEP_SECONDS);

const stack = await startLocalStack({
  port,
  dataDir,
  ...(process.env.HOST && { host: process.env.HOST }),
  ...(rateLimits && { rateLimits }),
  ...(process.env.OAUTH_PROVIDERS && { oauthProviders: process.env.OAUTH_PROVIDERS }),
  ...(process.env.INTEGRATION_PROVIDERS && { integrationProviders: process.env.INTEGRATION_PROVIDERS }),
  ...(process.env.APP_URL && { appUrl: process.env.APP_URL }),
  ...(process.env.ALLOWED_ORIGINS && { allowedOrigins: process.env.ALLOWED_ORIGINS }),
  ...(process.env.OUTBOUND_PRIVATE_NETWORKS && { outboundPrivateNetworks: process.env.OUTBOUND_PRIVATE_NETWORKS }),
  ...(sweepSeconds && { slaSweepSeconds: sweepSeconds }),
  ...(demo && { clock: demo.clock }),
});

/**
 * One Ctrl-C reaches this process several times: the terminal signals the whole process group (npm,
 * tsx and node), and npm and tsx each pass the signal on to their child as well, tens of milliseconds
 * later. Signals within this window of the first are that same stop; one after it is a person insisting.
 */
const REPEATED_SIGNAL_WINDOW_MS = 2_000;

const stoppedMessage = ({ savedMessages }: StopReport): string => {
  if (savedMessages === undefined) return 'Incident service stopped cleanly (nothing kept: DATA_DIR is :memory:)';
  const messages = savedMessages === 1 ? '1 queued message' : `${savedMessages} queued messages`;
  return `Incident service stopped cleanly, ${messages} saved for the next start (data: ${dataDir})`;
};

let stoppingSince: number | undefined;
const shutdown = (signal: string): void => {
  if (stoppingSince !== undefined) {
    if (Date.now() - stoppingSince < REPEATED_SIGNAL_WINDOW_MS) {
      log.debug('signal repeated while stopping', { signal });
      return;
    }
    log.warn('second signal, exiting without a clean stop', { signal });
    process.exit(1);
  }
  stoppingSince = Date.now();
  log.info('stopping', { signal });
  stack.stop().then(
    (report) => {
      process.stdout.write(`${stoppedMessage(report)}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      log.error('stop failed', { error });
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));

// Announced only once a signal would stop it cleanly: whoever waits for this line may signal at once.
if (demo) await printDemo(stack, demo.clock);
process.stdout.write(`Incident service running at ${stack.url} (web console: ${stack.url}/, data: ${dataDir})\n`);
