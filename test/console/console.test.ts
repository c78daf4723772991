import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { functionFiles } from '#infra/bundling.ts';
import { createConsoleHandler } from '#functions/console/console-handler.ts';
import { hasChromium } from '../support/browser.ts';
import {
  admin,
  client,
  engineer,
  expectOk,
  incidentId,
  linkInMail,
  openPage,
  screenshot,
  setUpConsole,
  signInOn,
  V1,
  viewer,
} from './support.ts';

setUpConsole();

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
    expect(missing.headers?.['content-type']).toMatch(/^text\/html/);
    expect(missing.body).toContain('Page not found');
  });

  it("ships the console's built files beside the deployed function's bundle", () => {
    const outdir = mkdtempSync(join(tmpdir(), 'console-bundle-'));
    try {
      functionFiles('console', outdir);
      expect(readFileSync(join(outdir, 'console', 'app.js'), 'utf8')).toContain('incident-console.user');
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
    await signInOn(page, engineer);

    // Signing in lands on the page the link named.
    await expect.poll(() => page.url()).toBe(link);
    await page.getByRole('heading', { name: 'Checkout latency above 2 s' }).waitFor();
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    const facts = page.locator('.facts');
    expect(await facts.innerText()).toContain('OPEN');

    await page.getByRole('button', { name: 'Acknowledge' }).click();
    await facts.getByText('ACKNOWLEDGED').waitFor();
    await page.locator('.timeline').getByText('Moved it from open to acknowledged').waitFor();
    const stored = await client.request('GET', `${V1}/incident-ticket/${incidentId}`, undefined, admin.auth);
    expect(stored.body.data.status).toBe('ACKNOWLEDGED');
    expect(stored.body.data.acknowledgedBy).toBe(engineer.email);
    expect(await page.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);

    // Escalate now pages the next level, acknowledged or not (docs/on-call.md).
    expect(await facts.innerText()).toContain('level 1');
    await page.getByRole('button', { name: 'Escalate now' }).click();
    await facts.getByText('level 2').waitFor();

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

    // The service filter is the list route's: the page and its pager are those of the filtered list.
    expectOk(
      await client.request(
        'POST',
        `${V1}/incident-ticket`,
        { summary: 'Ledger export stalled', priority: 'LOW', serviceArea: 'ledger' },
        admin.auth,
      ),
      201,
    );
    await page.getByRole('link', { name: 'Incidents' }).first().click();
    await page.locator('.rows li', { hasText: 'Ledger export stalled' }).waitFor();
    await page.locator('.rows li', { hasText: incidentId }).waitFor();
    await screenshot(page, 'incidents');
    const listed: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/incident-ticket?')) listed.push(request.url());
    });
    await page.getByLabel('Service').fill(' PAYMENTS ');
    await page.getByLabel('Service').press('Enter');
    await expect.poll(() => page.url()).toContain('serviceArea=PAYMENTS');
    await expect.poll(() => page.locator('.rows li').count()).toBe(1);
    expect(await page.locator('.rows li').innerText()).toContain(incidentId);
    expect(listed.at(-1)).toContain('serviceArea=PAYMENTS');
    await page.getByLabel('Service').fill('pay');
    await page.getByLabel('Service').press('Enter');
    await page.getByText('No incidents match.').waitFor();
    await page.getByRole('link', { name: 'On call' }).click();
    await page.locator('.rows li', { hasText: engineer.email }).waitFor();
    await page.getByRole('link', { name: 'Heartbeats' }).click();
    await page.getByRole('heading', { name: 'Maintenance windows' }).waitFor();
    await page.getByText('No heartbeats.').waitFor();
    expect(outside).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('assigns, analyses, exports as PDF and resolves the incident, and shows its playbook run', async () => {
    const playbook = await client.request(
      'POST',
      `${V1}/playbooks`,
      { title: 'Checkout latency', steps: [{ title: 'Check the last deploy' }, { title: 'Roll back' }] },
      admin.auth,
    );
    expectOk(playbook, 201);
    expectOk(await client.request('POST', `${V1}/playbooks/${playbook.body.data.id}/publish`, undefined, admin.auth));
    expectOk(
      await client.request('POST', `${V1}/playbooks/${playbook.body.data.id}/execute`, { incidentId }, admin.auth),
      201,
    );
    const page = await openPage([]);
    await page.goto(`${client.stack.url}/incidents/${incidentId}`);
    await signInOn(page, engineer);
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    // The playbook's start is one row: its history event, not also the thread's note of it.
    expect(await page.locator('.timeline li', { hasText: 'Playbook "Checkout latency"' }).count()).toBe(1);

    await page.getByLabel('Assign to').selectOption(engineer.email);
    await page.getByRole('button', { name: 'Assign', exact: true }).click();
    await page.locator('.assignee', { hasText: engineer.email }).waitFor();

    // The execution comes from the executions list filtered by this incident.
    const execution = page.locator('.execution', { hasText: 'Checkout latency' });
    await execution.getByRole('heading', { name: 'Checkout latency IN PROGRESS' }).waitFor();
    expect(await execution.locator('.steps li').allInnerTexts()).toEqual([
      expect.stringContaining('Check the last deploy'),
      expect.stringContaining('Roll back'),
    ]);

    await page.getByText('No completed analysis yet.').waitFor();
    await page.getByRole('button', { name: 'Analyse' }).click();
    // The page follows the analysis through its workflow and shows it once complete, with no reload.
    await page.getByText('Analysing…').waitFor();
    await page.locator('.analysis').waitFor({ timeout: 20_000 });
    expect(await page.getByText('Analysing…').count()).toBe(0);
    expect(await page.locator('.analysis').innerText()).toContain('Evidence');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${incidentId}.pdf`);
    const pdf = readFileSync(await download.path());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    await screenshot(page, 'incident');

    await page.getByRole('button', { name: 'Resolve…' }).click();
    await page.getByLabel('Resolution note (optional)').fill('Rolled back the checkout deploy.');
    await page.getByRole('button', { name: 'Resolve the incident' }).click();
    await page.locator('.facts').getByText('RESOLVED').waitFor();
    const stored = await client.request('GET', `${V1}/incident-ticket/${incidentId}`, undefined, admin.auth);
    expect(stored.body.data).toMatchObject({
      status: 'RESOLVED',
      assignedToEmail: engineer.email,
      resolution: 'Rolled back the checkout deploy.',
    });
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
    for (const name of ['Acknowledge', 'Escalate now', 'Resolve', 'Assign', 'Analyse', 'Add comment']) {
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    }
    expect(outside).toEqual([]);
    await page.context().close();
  }, 60_000);
});
