import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyPackageFiles } from '#infra/bundling.ts';
import { hasChromium, launchBrowser } from '../support/browser.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

/** The relative links of a Markdown text, without their fragments; links to other sites are not ours to serve. */
const markdownLinks = (markdown: string): string[] =>
  [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, link]) => (link ?? '').split('#')[0] ?? '')
    .filter((link) => link !== '' && !/^[a-z]+:/.test(link));

const committed = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));

describe('API docs', () => {
  let client: TestClient;
  let browser: Browser | undefined;

  beforeAll(async () => {
    [client, browser] = await Promise.all([startTestStack(), hasChromium ? launchBrowser() : undefined]);
  }, 60_000);

  afterAll(async () => {
    // The browser first: a page or service worker closing may still call the stack, which must be up to answer.
    await browser?.close();
    await client?.stack.stop();
  });

  it('serves the committed OpenAPI document without credentials', async () => {
    const reply = await client.request('GET', '/api/v1/openapi.json');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.body).toEqual(committed);
  });

  it('serves the page and its files from the service, as text', async () => {
    const page = await client.request('GET', '/api/v1/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).not.toMatch(/https?:\/\//);
    const script = await client.request('GET', '/api/v1/docs/swagger-ui-bundle.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(script.text).toContain('SwaggerUIBundle');
    const style = await client.request('GET', '/api/v1/docs/swagger-ui.css');
    expect(style.status).toBe(200);
    expect(style.headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('answers 404 for a file the page does not have', async () => {
    expect((await client.request('GET', '/api/v1/docs/index.html')).status).toBe(404);
    expect((await client.request('GET', '/api/v1/docs/no-such-page.md')).status).toBe(404);
    expect((await client.request('GET', '/api/v1/docs/..%2Fpackage.json')).status).toBe(400);
  });

  it('introduces the API in a few lines, and serves the decisions and every page they link', async () => {
    const introduction: string = committed.info.description;
    expect(introduction.split('\n').length).toBeLessThan(10);
    const docsUrl = new URL(`${client.stack.url}/api/v1/docs`);
    const linked = new Set(markdownLinks(introduction).map((link) => new URL(link, docsUrl).href));
    const decisions = new URL('docs/decisions.md', docsUrl).href;
    expect(linked).toContain(decisions);
    const decisionsText = await (await fetch(decisions)).text();
    for (const link of markdownLinks(decisionsText)) linked.add(new URL(link, decisions).href);
    const answers = await Promise.all(
      [...linked].map(async (url) => [url.replace(client.stack.url, ''), (await fetch(url)).status] as const),
    );
    expect(answers.filter(([, status]) => status !== 200)).toEqual([]);
    const page = await fetch(decisions);
    expect(page.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await page.text()).toBe(readFileSync(new URL('../../docs/decisions.md', import.meta.url), 'utf8'));
  });

  it.skipIf(!hasChromium)(
    'renders the routes in headless Chromium, loading nothing from outside the service',
    async () => {
      const page = await browser!.newPage();
      const outside: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(client.stack.url)) outside.push(request.url());
      });
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${client.stack.url}/api/v1/docs`);
      await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
      // The operations come first: the first one is on the first screen, under a short introduction.
      const first = await page.locator('.opblock').first().boundingBox();
      expect(first?.y).toBeLessThan(800);
      // Every link the page shows works: the introduction's, to the decisions and the specification.
      const hrefs = await page
        .locator('a[href]')
        .evaluateAll((links) => links.map((link) => (link as unknown as { href: string }).href));
      const ours = hrefs.filter((href) => href.startsWith(client.stack.url) && !href.includes('#'));
      expect(ours.length).toBeGreaterThan(3);
      const broken = [];
      for (const href of new Set(ours)) if ((await fetch(href)).status !== 200) broken.push(href);
      expect(broken).toEqual([]);
      // Swagger UI renders the operations in view, after the window changed: a window as tall as the page shows
      // them all once they have rendered (waited for each, not read at once).
      const height = Number(await page.evaluate('document.documentElement.scrollHeight'));
      await page.setViewportSize({ width: 1280, height });
      const operations = [
        'health.getHealth',
        'auth.login',
        'incidents.createIncident',
        'problems.listProblems',
        'business.listMembers',
      ];
      for (const operation of operations) {
        await page.locator('.opblock-summary', { hasText: operation }).first().waitFor({ timeout: 15_000 });
      }
      const text = (await page.locator('.opblock-summary').allInnerTexts()).join('\n');
      for (const operation of operations) expect(text).toContain(operation);
      expect(text).toContain('/api/v1/incident-ticket/{id}');
      expect(outside).toEqual([]);
      await page.close();
    },
    60_000,
  );

  it('ships the Swagger UI files beside the deployed bundle, where the function resolves them', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'docs-bundle-'));
    try {
      copyPackageFiles('docs', outdir);
      const resolve = createRequire(join(outdir, 'index.mjs')).resolve;
      for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
        expect(resolve(`swagger-ui-dist/${file}`)).toBe(join(outdir, 'node_modules', 'swagger-ui-dist', file));
      }
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
