import { beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../support/browser.ts';
import {
  admin,
  client,
  engineer,
  expectOk,
  openPage,
  screenshot,
  setUpConsole,
  signInOn,
  V1,
  viewer,
} from './support.ts';

setUpConsole();

const HOUR = 3_600_000;
/** The page's words for an instant: weekday, day, month and time on the workspace's clock. */
const clock = (iso: string): string =>
  new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'Europe/Berlin',
  }).format(new Date(iso));

const post = async (path: string, body: unknown) => {
  const reply = await client.request('POST', `${V1}${path}`, body, admin.auth);
  expectOk(reply, 201);
  return reply.body.data as Record<string, any>;
};

let override: Record<string, any>;

beforeAll(async () => {
  expectOk(await client.request('PUT', `${V1}/ims/config`, { timezone: 'Europe/Berlin' }, admin.auth));
  const checkout = await post('/schedules', {
    name: 'Checkout primary',
    timezone: 'Europe/Berlin',
    layers: [
      {
        start: new Date(Date.now() - HOUR).toISOString(),
        rotationType: 'weekly',
        handoffTime: '09:00',
        members: [admin.user.id, engineer.user.id],
      },
    ],
  });
  const start = new Date(Date.now() + 26 * HOUR);
  override = await post(`/schedules/${checkout.id}/overrides`, {
    userId: engineer.user.id,
    start: start.toISOString(),
    end: new Date(start.getTime() + 6 * HOUR).toISOString(),
  });
  await post('/schedules', {
    name: 'Payments secondary',
    timezone: 'UTC',
    layers: [
      {
        start: new Date(Date.now() + 3 * 24 * HOUR).toISOString(),
        rotationType: 'daily',
        handoffTime: '08:00',
        members: [engineer.user.id],
      },
    ],
  });
}, 60_000);

describe.skipIf(!hasChromium)('the on-call page: who is on call now and next in each schedule', () => {
  it('names them, says until when on the workspace clock, and lists the overrides, on a phone', async () => {
    const outside: string[] = [];
    const page = await openPage(outside);
    await page.goto(`${client.stack.url}/on-call`);
    await signInOn(page, viewer);
    const checkout = page.getByRole('region', { name: 'Checkout primary' });
    await checkout.getByText('Ada Lovelace').first().waitFor();
    await page.getByText('Times in Europe/Berlin.').waitFor();

    const rows = await checkout.locator('.rows').first().locator('li').allInnerTexts();
    expect(rows[0]).toContain('Ada Lovelace');
    expect(rows[0]).toContain('on call now');
    expect(rows[0]).toContain(`until ${clock(override.start)}`);
    expect(rows[1]).toContain('Grace Hopper');
    expect(rows[1]).toContain('override');
    expect(rows[1]).toContain(`from ${clock(override.start)}, until ${clock(override.end)}`);
    const overrides = await checkout.locator('.rows').nth(1).innerText();
    expect(overrides).toContain(`Grace Hopper`);
    expect(overrides).toContain(`${clock(override.start)} to ${clock(override.end)}`);

    const payments = await page.getByRole('region', { name: 'Payments secondary' }).innerText();
    expect(payments).toContain('Nobody is on call now');
    expect(payments).toContain('with no handoff in the next 4 weeks');
    expect(payments).toMatch(/Grace Hopper\s*next/);
    expect(payments).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    await screenshot(page, 'on-call-schedules');
    expect(outside).toEqual([]);
    await page.context().close();
  }, 60_000);
});
