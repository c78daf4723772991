import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium (`apt-get install chromium`; `.ci/run` installs it when missing). */
const CHROMIUM = '/usr/bin/chromium';

/**
 * `npm ci` cannot bring a browser, so a machine without one runs every other test of a file and skips only
 * those that render a page.
 */
export const hasChromium = existsSync(CHROMIUM);

/** Flags as STACK-NOTES gives them: headless as root, and nothing reaches out beyond the local stack. */
export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
