import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { handler as slaSweep } from '#functions/sla-sweep/index.ts';
import { installPorts } from '#lib/ports/port-set.ts';
import { analyse } from '../analysis/support.ts';
import { apiKeyHeaders } from '../support/accounts.ts';
import { hasChromium } from '../support/browser.ts';
import { alertmanagerAlert } from '../notifications/support.ts';
import { admin, browser, client, engineer, expectOk, linkInMail, setUpConsole, signInOn, V1 } from './support.ts';

setUpConsole();

const PHONE = { width: 390, height: 844 };
const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS ? new URL('../../docs/images/', import.meta.url) : undefined;

/** The first screen as a phone shows it, for docs/console.md. */
const firstScreen = async (page: Page, name: string): Promise<void> => {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: new URL(`console-${name}.png`, SCREENSHOTS).pathname });
};

/** Posts the Alertmanager alert and answers the incident correlation opened for it, its pages sent. */
const incidentFromAlert = async (): Promise<string> => {
  const ingest = await apiKeyHeaders(client, admin, ['ingestion:write']);
  const startsAt = new Date(Date.now() - 7 * 60_000).toISOString();
  const posted = await client.request(
    'POST',
    `${V1}/ingestion/metrics-alerts`,
    JSON.stringify(alertmanagerAlert(startsAt)),
    ingest,
  );
  expectOk(posted, 202);
  await client.stack.workers?.idle();
  const list = await client.request('GET', `${V1}/incident-ticket?limit=50`, undefined, admin.auth);
  const opened = (list.body.data as { id: string; summary: string }[]).find(({ summary }) =>
    summary.startsWith('Checkout error rate above 5%'),
  );
  if (!opened) throw new Error('no incident was opened for the alert');
  await client.stack.deliveriesIdle();
  return opened.id;
};

/** Whether the element's box ends within the first screen of a phone. */
const withinFirstScreen = async (page: Page, selector: string): Promise<boolean> => {
  const box = await page.locator(selector).first().boundingBox();
  return !!box && box.y >= 0 && box.y + box.height <= PHONE.height;
};

describe.skipIf(!hasChromium)('a responder on a phone', () => {
  it('signs in once: a link opened in a second tab, and a reload, show the incident, not the sign-in form', async () => {
    const incidentId = await incidentFromAlert();
    const context = await browser!.newContext({ viewport: PHONE });
    const first = await context.newPage();
    await first.goto(`${client.stack.url}/sign-in`);
    await signInOn(first, engineer);
    await first.getByRole('heading', { name: 'Incidents' }).waitFor();

    const [cookie] = (await context.cookies()).filter(({ name }) => name === 'ims_refresh');
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/api/v1/auth' });
    // No script reaches a token: the cookie is HttpOnly, and no storage holds one (a JWT starts `eyJ`).
    expect(await first.evaluate('document.cookie')).toBe('');
    expect(await first.evaluate('JSON.stringify({ ...sessionStorage, ...localStorage })')).not.toContain('eyJ');

    const second = await context.newPage();
    await second.goto(await linkInMail(engineer.email, incidentId));
    await second.getByRole('heading', { name: 'Checkout error rate above 5% on checkout' }).waitFor();
    expect(await second.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
    await second.reload();
    await second.getByRole('heading', { name: 'Checkout error rate above 5% on checkout' }).waitFor();

    await second.getByRole('button', { name: 'Sign out' }).click();
    await second.getByRole('button', { name: 'Sign in' }).waitFor();
    expect((await context.cookies()).filter(({ name }) => name === 'ims_refresh')).toEqual([]);
    await first.reload();
    await first.getByRole('button', { name: 'Sign in' }).waitFor();
    await context.close();
  }, 60_000);

  it('shows what is broken and the runbook on the first screen, the alert labels and annotations, and 44 px targets', async () => {
    const incidentId = await incidentFromAlert();
    const context = await browser!.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${client.stack.url}/incidents/${incidentId}`);
    await signInOn(page, engineer);
    await page.locator('.brief-description').waitFor();
    expect(await page.locator('.brief-description').innerText()).toBe(
      'POST /pay answers 502 for 7% of requests since the last deploy.',
    );
    const runbook = page.getByRole('link', { name: 'Open the runbook' });
    expect(await runbook.getAttribute('href')).toBe('https://runbooks.example.com/checkout/errors');
    expect(await withinFirstScreen(page, '.brief-description')).toBe(true);
    expect(await withinFirstScreen(page, '.brief .runbook')).toBe(true);
    expect(await page.locator('.brief-since').innerText()).toMatch(/\(\d+ minutes ago\)/);
    await firstScreen(page, 'incident-phone');

    const timeline = await page.locator('.timeline').innerText();
    expect(timeline).toContain('Opened the incident');
    expect(timeline).toContain('Linked the alert CheckoutErrorRateHigh');
    expect(timeline).not.toMatch(/[0-9A-HJKMNP-TV-Z]{26}|\d{4}-\d{2}-\d{2}T\d{2}:/);

    await page.getByText('Labels and annotations').first().click();
    const facts = await page.locator('.alert-facts').first().innerText();
    for (const shown of ['alertname', 'CheckoutErrorRateHigh', 'env', 'production', 'runbook_url', 'description']) {
      expect(facts).toContain(shown);
    }

    const targets = page.locator('main button, .top nav a, .top button, p.crumbs a, .brief a');
    for (const box of await targets.evaluateAll((nodes) =>
      nodes.map((node) => ({ text: node.textContent, height: node.getBoundingClientRect().height })),
    )) {
      expect(box.height, box.text ?? '').toBeGreaterThanOrEqual(44);
    }

    const acknowledge = await page.getByRole('button', { name: 'Acknowledge' }).boundingBox();
    const resolve = await page.getByRole('button', { name: 'Resolve…' }).boundingBox();
    expect(resolve!.y - (acknowledge!.y + acknowledge!.height)).toBeGreaterThan(44);
    await page.getByRole('button', { name: 'Resolve…' }).click();
    await page.getByLabel('Resolution note (optional)').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    const stored = await client.request('GET', `${V1}/incident-ticket/${incidentId}`, undefined, admin.auth);
    expect(stored.body.data.status).toBe('OPEN');
    await context.close();
  }, 60_000);

  it("says every time in the workspace's zone, not the device's, and no ISO instant on the incident page", async () => {
    const zone = await client.request(
      'PUT',
      `${V1}/ims/config`,
      { timezone: 'Asia/Kolkata', autoEscalate: true },
      admin.auth,
    );
    expectOk(zone);
    const incidentId = await incidentFromAlert();
    // The first escalation, a minute past the response deadline: its history row names the deadline's instant.
    installPorts({ ...client.stack.ports, clock: { now: () => new Date(Date.now() + 16 * 60_000) } });
    try {
      await slaSweep();
    } finally {
      installPorts(client.stack.ports);
    }
    await client.stack.deliveriesIdle();
    await analyse(client, admin, incidentId);

    const context = await browser!.newContext({ viewport: PHONE, timezoneId: 'America/New_York' });
    const page = await context.newPage();
    await page.goto(`${client.stack.url}/incidents/${incidentId}`);
    await signInOn(page, engineer);
    await page
      .locator('.timeline')
      .getByText(/^Escalation 1 of/)
      .waitFor();
    await page.getByText('Remediation').first().waitFor();
    const shown = (await page.locator('body').textContent()) ?? '';
    expect(shown).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(shown).toContain('(Asia/Kolkata)');
    expect(shown).not.toContain('America/New_York');
    const opened = (await client.request('GET', `${V1}/incident-ticket/${incidentId}`, undefined, admin.auth)).body
      .data;
    const kolkata = new Date(Date.parse(opened.createdAt) + 330 * 60_000).toISOString().slice(11, 16);
    expect(await page.locator('main > dl.facts').innerText()).toContain(`${kolkata} on `);
    expect(await page.locator('.timeline').innerText()).toMatch(
      /Escalation 1 of \d+: not acknowledged since the response deadline \d\d:\d\d on \d+ \w+ \d{4} \(Asia\/Kolkata\)/,
    );
    await firstScreen(page, 'incident-zone');
    await context.close();
  }, 90_000);
});
