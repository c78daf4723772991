import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { hasChromium, launchBrowser } from '../support/browser.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { onCallFromNow } from '../support/on-call.ts';

export const V1 = '/api/v1';
/** `CONSOLE_SCREENSHOTS=1 npx vitest run test/console` writes the pages docs/console.md shows. */
const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS ? new URL('../../docs/images/', import.meta.url) : undefined;
const PHONE = { width: 390, height: 844 };

/*
 * The workspace every console test file works in, one stack and one browser per file. Live bindings: a file
 * reads them in its tests, after `setUpConsole`'s hooks have run.
 */
export let client: TestClient;
export let browser: Browser | undefined;
export let admin: SignedIn;
export let engineer: SignedIn;
export let viewer: SignedIn;
export let incidentId: string;

export const expectOk = (reply: { status: number; text: string }, status = 200) =>
  expect(reply.status, reply.text).toBe(status);

/** The link to the incident in the notification e-mail the on-call engineer got, as a person would click it. */
export const linkInMail = async (email: string, id: string): Promise<string> => {
  const mail = await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`);
  const message = (mail.body.data as { subject: string; text: string }[]).find(({ subject }) => subject.includes(id));
  const link = message?.text.match(/https?:\/\/\S+\/incidents\/\S+/)?.[0];
  if (!link) throw new Error(`no incident link mailed to ${email}: ${JSON.stringify(mail.body.data)}`);
  return link;
};

export const signInOn = async (page: Page, who: SignedIn): Promise<void> => {
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
};

/** A page of its own (fresh sessionStorage) at phone size that records any request leaving the stack. */
export const openPage = async (outside: string[]): Promise<Page> => {
  const context = await browser!.newContext({ viewport: PHONE });
  const page = await context.newPage();
  page.on('request', (request) => {
    if (!request.url().startsWith(client.stack.url)) outside.push(request.url());
  });
  return page;
};

export const screenshot = async (page: Page, name: string): Promise<void> => {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: new URL(`console-${name}.png`, SCREENSHOTS).pathname, fullPage: true });
};

/** Starts the file's stack and browser, signs the workspace's people up and opens its first incident. */
export const setUpConsole = (): void => {
  beforeAll(async () => {
    [client, browser] = await Promise.all([
      startTestStack(':memory:', undefined, { workers: true }),
      hasChromium ? launchBrowser() : undefined,
    ]);
    // One stack per file, in memory: plain addresses read well in the screenshots docs/console.md shows.
    admin = await signUpBusiness(client, { businessName: 'Console Ops', email: 'ada@acme.test' });
    expectOk(
      await client.request(
        'POST',
        `${V1}/ims/setup`,
        { alertEmail: 'alerts@example.com', timezone: 'UTC' },
        admin.auth,
      ),
      201,
    );
    engineer = await joinAs(client, admin, 'ENGINEER', 'grace@acme.test');
    viewer = await joinAs(client, admin, 'VIEWER', 'barbara@acme.test');
    await onCallFromNow(client, admin, engineer.user.id);
    const created = await client.request(
      'POST',
      `${V1}/incident-ticket`,
      {
        summary: 'Checkout latency above 2 s',
        priority: 'HIGH',
        serviceArea: 'payments',
        environment: 'production',
        description: 'p99 of the checkout API is above 2 s since 02:10.',
      },
      admin.auth,
    );
    expectOk(created, 201);
    incidentId = created.body.data.id;
  }, 60_000);

  afterAll(async () => {
    // The browser first: a page or service worker closing may still call the stack, which must be up to answer.
    await browser?.close();
    await client?.stack.stop();
  });
};
