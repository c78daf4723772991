import { describe, expect, it } from 'vitest';
import { hasChromium } from '../support/browser.ts';
import { V1, admin, browser, client, engineer, expectOk, setUpConsole, signInOn } from './support.ts';

setUpConsole();

/** What the page's script sees, typed here: the tests' tsconfig has no DOM. */
interface Browserish {
  navigator: {
    serviceWorker: {
      ready: Promise<{
        getNotifications(): Promise<{ title: string; body: string; actions: { action: string; title: string }[] }[]>;
      }>;
    };
  };
}

/** A page to the on-call engineer as the push service stand-in received and decrypted it. */
const pushedPage = async (): Promise<Record<string, any>> => {
  const device = (await client.request('POST', '/_local/push/subscriptions')).body.data;
  expectOk(await client.request('POST', `${V1}/push/subscriptions`, device, engineer.auth), 201);
  const created = await client.request(
    'POST',
    `${V1}/incident-ticket`,
    { summary: 'Payments API answers 503', priority: 'CRITICAL', serviceArea: 'payments' },
    admin.auth,
  );
  expectOk(created, 201);
  await client.stack.deliveriesIdle();
  const received = (await client.request('GET', new URL(device.endpoint).pathname)).body.data;
  return received.at(-1).payload;
};

describe('the console as an installable app', () => {
  it('serves its manifest, icons and service worker at its root, with their types', async () => {
    const manifest = await fetch(`${client.stack.url}/manifest.webmanifest`);
    expect(manifest.headers.get('content-type')).toBe('application/manifest+json');
    const body = (await manifest.json()) as Record<string, any>;
    expect(body).toMatchObject({ display: 'standalone', start_url: './incidents', scope: './' });
    for (const { src, sizes } of body.icons as { src: string; sizes: string }[]) {
      const icon = await fetch(`${client.stack.url}/${src}`);
      expect(icon.headers.get('content-type')).toBe('image/png');
      const png = Buffer.from(await icon.arrayBuffer());
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`).toBe(sizes);
      expect(png.length).toBeLessThan(8 * 1024);
    }
    const worker = await fetch(`${client.stack.url}/service-worker.js`);
    expect(worker.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(await worker.text()).toContain('showNotification');
    const page = await (await fetch(`${client.stack.url}/incidents`)).text();
    expect(page).toContain('<link rel="manifest" href="manifest.webmanifest">');
  });

  it.skipIf(!hasChromium)(
    'installs the service worker, which shows a push as a notification with Acknowledge and Open',
    async () => {
      const payload = await pushedPage();
      const origin = client.stack.url;
      const context = await browser!.newContext();
      await context.grantPermissions(['notifications'], { origin });
      const page = await context.newPage();
      await page.goto(`${origin}/incidents`);
      await signInOn(page, engineer);
      await page.getByRole('button', { name: 'Turn push notifications on' }).waitFor();
      // The headless browser has no push service to subscribe at (offline), so the push is handed to the worker
      // through DevTools, as the push service would deliver it (docs/console.md).
      const cdp = await context.newCDPSession(page);
      const registered = new Promise<string>((resolve) => {
        cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
          const ours = registrations.find(({ scopeURL, isDeleted }) => scopeURL === `${origin}/` && !isDeleted);
          if (ours) resolve(ours.registrationId);
        });
      });
      await cdp.send('ServiceWorker.enable');
      await page.evaluate(() =>
        (globalThis as unknown as Browserish).navigator.serviceWorker.ready.then(() => undefined),
      );
      const registrationId = await registered;
      const deliverPush = () =>
        cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: JSON.stringify(payload) });
      // Polled with evaluate: waitForFunction takes an async predicate's promise for a truthy answer at once
      // (Playwright's predicates are synchronous), which is how this test once read no notification at all.
      const shownNotifications = () =>
        page.evaluate(async () =>
          (await (await (globalThis as unknown as Browserish).navigator.serviceWorker.ready).getNotifications()).map(
            (notification) => ({
              title: notification.title,
              body: notification.body,
              actions: notification.actions.map(({ action, title }) => ({ action, title })),
            }),
          ),
        );
      // The worker shows the notification some time after the delivery (over a second, once in five runs alone),
      // and about one DevTools delivery in ten never reaches it (seen alone and in clean clones, the worker
      // active). A push service delivers again what was not acknowledged; so does this test, every 3 s: the
      // notification's tag is the incident's, so a second delivery replaces the first rather than adding one.
      await expect
        .poll(
          async () => {
            const shown = await shownNotifications();
            if (shown.length === 0) await deliverPush();
            return shown;
          },
          { timeout: 15_000, interval: 3_000 },
        )
        .toHaveLength(1);
      const [notification] = await shownNotifications();
      expect(notification?.title).toBe(payload.title);
      expect(notification?.title).toMatch(/^\[CRITICAL\] INC-\S+ opened: Payments API answers 503$/);
      expect(notification?.body).toContain('Since:');
      expect(notification?.actions).toEqual([
        { action: 'acknowledge', title: 'Acknowledge' },
        { action: 'open', title: 'Open' },
      ]);
      await context.close();
    },
    60_000,
  );
});
