import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionFiles } from '#infra/bundling.ts';
import { createConsoleHandler } from '#functions/console/console-handler.ts';
import { joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { hasChromium, launchBrowser } from '../support/browser.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

const V1 = '/api/v1';
/** `CONSOLE_SCREENSHOTS=1 npx vitest run test/console` writes the pages docs/console.md shows. */
const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS ? new URL('../../docs/images/', import.meta.url) : undefined;
const PHONE = { width: 390, height: 844 };

let client: TestClient;
let browser: Browser | undefined;
let admin: SignedIn;
let engineer: SignedIn;
let viewer: SignedIn;
let incidentId: string;

const today = (): string => new Date().toISOString().slice(0, 10);

const expectOk = (reply: { status: number; text: string }, status = 200) =>
  expect(reply.status, reply.text).toBe(status);

/** The link to the incident in the notification e-mail the on-call engineer got, as a person would click it. */
const linkInMail = async (email: string, id: string): Promise<string> => {
  const mail = await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`);
  const message = (mail.body.data as { subject: string; text: string }[]).find(({ subject }) => subject.includes(id));
  const link = message?.text.match(/https?:\/\/\S+\/incidents\/\S+/)?.[0];
  if (!link) throw new Error(`no incident link mailed to ${email}: ${JSON.stringify(mail.body.data)}`);
  return link;
};

const signInOn = async (page: Page, who: SignedIn): Promise<void> => {
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
};

/** A page of its own (fresh sessionStorage) at phone size that records any request leaving the stack. */
const openPage = async (outside: string[]): Promise<Page> => {
  const context = await browser!.newContext({ viewport: PHONE });
  const page = await context.newPage();
  page.on('request', (request) => {
    if (!request.url().startsWith(client.stack.url)) outside.push(request.url());
  });
  return page;
};

const screenshot = async (page: Page, name: string): Promise<void> => {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: new URL(`console-${name}.png`, SCREENSHOTS).pathname, fullPage: true });
};

beforeAll(async () => {
  [client, browser] = await Promise.all([
    startTestStack(':memory:', undefined, { workers: true }),
    hasChromium ? launchBrowser() : undefined,
  ]);
  // One stack per file, in memory: plain addresses read well in the screenshots docs/console.md shows.
  admin = await signUpBusiness(client, { businessName: 'Console Ops', email: 'ada@acme.test' });
  expectOk(
    await client.request('POST', `${V1}/ims/setup`, { alertEmail: 'alerts@example.com', timezone: 'UTC' }, admin.auth),
    201,
  );
  engineer = await joinAs(client, admin, 'ENGINEER', 'grace@acme.test');
  viewer = await joinAs(client, admin, 'VIEWER', 'barbara@acme.test');
  expectOk(
    await client.request(
      'POST',
      `${V1}/assign-member`,
      { userId: engineer.user.id, date: today(), startTime: '00:00', endTime: '24:00' },
      admin.auth,
    ),
    201,
  );
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
  await Promise.all([browser?.close(), client?.stack.stop()]);
});

describe('the console, served at the app URL', () => {
  it('answers every page path with the same HTML, its files as script and stylesheet, and keeps the API apart', async () => {
    for (const path of ['/', '/sign-in', `/incidents/${incidentId}`, '/incidents', '/accept-invite?token=x']) {
      const reply = await fetch(`${client.stack.url}${path}`);
      expect(reply.status, path).toBe(200);
      expect(reply.headers.get('content-type')).toMatch(/^text\/html/);
      expect(reply.headers.get('content-security-policy')).toContain("default-src 'self'");
      const html = await reply.text();
      expect(html).toContain('<base href="/">');
      expect(html).not.toMatch(/https?:\/\//);
    }
    const script = await fetch(`${client.stack.url}/console/app.js`);
    expect(script.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect((await script.text()).length).toBeGreaterThan(1000);
    const style = await fetch(`${client.stack.url}/console/app.css`);
    expect(style.headers.get('content-type')).toMatch(/^text\/css/);
    expect((await fetch(`${client.stack.url}/console/other.js`)).status).toBe(404);
    expect((await fetch(`${client.stack.url}/incidents/${incidentId}/more`)).status).toBe(404);
    const unknownRoute = await client.request('GET', `${V1}/no-such-route`);
    expect(unknownRoute.status).toBe(404);
    expect(unknownRoute.body.message).toBe(`Route not found: GET ${V1}/no-such-route`);
  });

  it('behind the stage URL, takes the stage as its base, so files and API calls stay below it', async () => {
    const handler = createConsoleHandler(async () => Buffer.from('asset'));
    const event = {
      path: `/incidents/${incidentId}`,
      requestContext: { path: `/prod/incidents/${incidentId}`, requestId: 'r-1' },
    } as unknown as APIGatewayProxyEvent;
    const page = await handler(event);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<base href="/prod/">');
    const root = await handler({ path: '/', requestContext: { path: '/prod/', requestId: 'r-2' } } as never);
    expect(root.body).toContain('<base href="/prod/">');
    const missing = await handler({ path: '/nope', requestContext: { path: '/prod/nope', requestId: 'r-3' } } as never);
    expect(missing.statusCode).toBe(404);
  });

  it("ships the console's built files beside the deployed function's bundle", () => {
    const outdir = mkdtempSync(join(tmpdir(), 'console-bundle-'));
    try {
      functionFiles('console', outdir);
      expect(readFileSync(join(outdir, 'console', 'app.js'), 'utf8')).toContain('incident-console.session');
      expect(readFileSync(join(outdir, 'console', 'app.css'), 'utf8')).toContain('.timeline');
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!hasChromium)('the console in headless Chromium', () => {
  it('opens the incident from the notification link, acknowledges, comments and shows both in the timeline', async () => {
    const link = await linkInMail(engineer.email, incidentId);
    expect(link).toBe(`${client.stack.url}/incidents/${incidentId}`);
    const outside: string[] = [];
    const page = await openPage(outside);
    await page.goto(link);
    await screenshot(page, 'sign-in');
    await signInOn(page, engineer);

    // Signing in lands on the page the link named.
    await expect.poll(() => page.url()).toBe(link);
    await page.getByRole('heading', { name: 'Checkout latency above 2 s' }).waitFor();
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    const facts = page.locator('.facts');
    expect(await facts.innerText()).toContain('OPEN');

    await page.getByRole('button', { name: 'Acknowledge' }).click();
    await facts.getByText('ACKNOWLEDGED').waitFor();
    await page.locator('.timeline').getByText('OPEN → ACKNOWLEDGED').waitFor();
    const stored = await client.request('GET', `${V1}/incident-ticket/${incidentId}`, undefined, admin.auth);
    expect(stored.body.data.status).toBe('ACKNOWLEDGED');
    expect(stored.body.data.acknowledgedBy).toBe(engineer.email);
    expect(await page.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);

    const comment = 'Rolled back the 02:05 deploy; watching p99.';
    await page.getByLabel('Comment').fill(comment);
    await page.getByRole('button', { name: 'Add comment' }).click();
    await page.locator('.timeline-comment').getByText(comment).waitFor();
    const comments = await client.request('GET', `${V1}/incident-ticket/comment/${incidentId}`, undefined, admin.auth);
    expect(comments.body.data.map((one: { content: string }) => one.content)).toEqual([comment]);
    expect(await page.locator('.card', { hasText: 'Notifications' }).innerText()).toContain(engineer.email);

    // A stale access token is replaced with the refresh token, without signing in again.
    await page.evaluate(`(() => {
      const key = 'incident-console.session';
      const session = JSON.parse(sessionStorage.getItem(key) ?? '{}');
      sessionStorage.setItem(key, JSON.stringify({ ...session, accessToken: 'expired' }));
    })()`);
    await page.reload();
    await page.getByRole('heading', { name: 'Checkout latency above 2 s' }).waitFor();

    await page.getByRole('link', { name: 'Incidents' }).first().click();
    await page.locator('.rows li', { hasText: incidentId }).waitFor();
    await screenshot(page, 'incidents');
    await page.getByRole('link', { name: 'On call' }).click();
    await page.locator('.rows li', { hasText: engineer.email }).waitFor();
    await screenshot(page, 'on-call');
    expect(outside).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('assigns, analyses, exports as PDF and resolves the incident', async () => {
    const page = await openPage([]);
    await page.goto(`${client.stack.url}/incidents/${incidentId}`);
    await signInOn(page, engineer);
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();

    await page.getByLabel('Assign to').selectOption(engineer.email);
    await page.getByRole('button', { name: 'Assign', exact: true }).click();
    await page.locator('.assignee', { hasText: engineer.email }).waitFor();

    await page.getByRole('button', { name: 'Analyse' }).click();
    // The analysis runs through its workflow; the page shows it once complete.
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByRole('heading', { name: 'Analysis' }).waitFor();
          return page.locator('.analysis').count();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(1);
    expect(await page.locator('.analysis').innerText()).toContain('Evidence');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${incidentId}.pdf`);
    const pdf = readFileSync(await download.path());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    await screenshot(page, 'incident');

    await page.getByRole('button', { name: 'Resolve' }).click();
    await page.locator('.facts').getByText('RESOLVED').waitFor();
    const stored = await client.request('GET', `${V1}/incident-ticket/${incidentId}`, undefined, admin.auth);
    expect(stored.body.data).toMatchObject({ status: 'RESOLVED', assignedToEmail: engineer.email });
    await page.context().close();
  }, 60_000);

  it('shows a VIEWER an OPEN incident without the buttons a VIEWER may not use', async () => {
    const created = await client.request(
      'POST',
      `${V1}/incident-ticket`,
      { summary: 'Search index lagging', priority: 'MEDIUM', serviceArea: 'search' },
      admin.auth,
    );
    expectOk(created, 201);
    const outside: string[] = [];
    const page = await openPage(outside);
    await page.goto(await linkInMail(engineer.email, created.body.data.id));
    await signInOn(page, viewer);
    await page.getByRole('heading', { name: 'Search index lagging' }).waitFor();
    expect(await page.locator('.facts').innerText()).toContain('OPEN');
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    await page.getByRole('button', { name: 'Export PDF' }).waitFor();
    for (const name of ['Acknowledge', 'Resolve', 'Assign', 'Analyse', 'Add comment']) {
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    }
    expect(outside).toEqual([]);
    await page.context().close();
  }, 60_000);
});

describe.skipIf(!hasChromium)('the console: the other pages a mailed link or a first sign-in opens', () => {
  const mailTo = async (email: string) =>
    (await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`)).body.data as {
      subject: string;
      text: string;
      otp?: string;
    }[];

  it('signs a new registrant in with the e-mailed code on the first sign-in', async () => {
    const email = `first-${Date.now().toString(36)}@example.com`;
    const password = 'a first long password';
    const registered = await client.request('POST', `${V1}/auth/business/register`, {
      businessName: 'First Sign-in',
      firstName: 'Fran',
      lastName: 'Allen',
      email,
      password,
    });
    expectOk(registered, 201);
    const page = await openPage([]);
    await page.goto(`${client.stack.url}/sign-in`);
    await signInOn(page, { email, password } as SignedIn);
    await page.getByLabel('Code from the e-mail').fill((await mailTo(email)).find(({ otp }) => otp)?.otp ?? '');
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await page.getByRole('heading', { name: 'Incidents' }).waitFor();
    expect(await page.locator('.who').innerText()).toContain(email);
    await page.context().close();
  });

  it('accepts an invitation from the link in its e-mail, and resets a password from the reset e-mail', async () => {
    const email = `invited-${Date.now().toString(36)}@example.com`;
    expectOk(
      await client.request(
        'POST',
        `${V1}/business/send-invite`,
        { email, role: 'ENGINEER', accessPermissions: [] },
        admin.auth,
      ),
      201,
    );
    const invite = (await mailTo(email))[0]?.text.match(/https?:\/\/\S+\/accept-invite\?token=\S+/)?.[0];
    expect(invite).toBeDefined();
    const page = await openPage([]);
    await page.goto(invite!);
    await page.getByRole('heading', { name: 'Join Console Ops' }).waitFor();
    await screenshot(page, 'accept-invite');
    await page.getByLabel('First name').fill('Katherine');
    await page.getByLabel('Last name').fill('Johnson');
    await page.getByLabel('Password').fill('an invited long password');
    await page.getByRole('button', { name: 'Accept and sign in' }).click();
    await page.getByRole('heading', { name: 'Incidents' }).waitFor();
    expect(await page.locator('.who').innerText()).toContain('ENGINEER');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'E-mail me a code' }).click();
    await page.getByText('a code is on its way').waitFor();
    const reset = (await mailTo(email)).find(({ subject }) => subject.includes('reset'));
    const link = reset?.text.match(/https?:\/\/\S+\/reset-password\?email=\S+/)?.[0];
    expect(link).toBe(`${client.stack.url}/reset-password?email=${encodeURIComponent(email)}`);
    await page.goto(link!);
    await page.getByLabel('Code from the e-mail').fill(reset?.otp ?? '');
    await page.getByLabel('New password').fill('a brand new long password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('Your password is set').waitFor();
    await signInOn(page, { email, password: 'a brand new long password' } as SignedIn);
    await page.getByRole('heading', { name: 'Incidents' }).waitFor();
    await page.context().close();
  }, 60_000);

  it('acknowledges, resolves and suppresses signals for an ENGINEER, and shows a VIEWER none of those buttons', async () => {
    for (const name of ['Disk 91% on db-1', 'Error rate 4% on checkout', 'Cert expires in 5 days']) {
      expectOk(
        await client.request('POST', `${V1}/signals`, { name, source: 'monitoring', severity: 'HIGH' }, admin.auth),
        201,
      );
    }
    const page = await openPage([]);
    await page.goto(`${client.stack.url}/signals`);
    await signInOn(page, engineer);
    const row = (name: string) => page.locator('.rows li', { hasText: name });
    await row('Disk 91% on db-1').waitFor();
    await screenshot(page, 'signals');
    await row('Disk 91% on db-1').getByRole('button', { name: 'Acknowledge' }).click();
    await row('Disk 91% on db-1').getByText('ACKNOWLEDGED').waitFor();
    await row('Error rate 4% on checkout').getByRole('button', { name: 'Resolve' }).click();
    await row('Error rate 4% on checkout').getByText('RESOLVED').waitFor();
    await row('Cert expires in 5 days').getByRole('button', { name: 'Suppress' }).click();
    await row('Cert expires in 5 days').getByText('SUPPRESSED').waitFor();
    await page.context().close();

    const viewing = await openPage([]);
    await viewing.goto(`${client.stack.url}/signals`);
    await signInOn(viewing, viewer);
    await viewing.locator('.rows li', { hasText: 'Disk 91% on db-1' }).waitFor();
    expect(await viewing.locator('.rows li button').count()).toBe(0);
    await viewing.context().close();
  }, 60_000);
});
