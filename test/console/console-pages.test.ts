import { describe, expect, it } from 'vitest';
import type { SignedIn } from '../support/accounts.ts';
import { onCallFromNow } from '../support/on-call.ts';
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
    expect(await page.locator('body').textContent()).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
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
    // A refused field's message shows under that field, from the API's `errors`.
    await page.getByLabel('Code from the e-mail').fill('12');
    await page.getByLabel('New password').fill('a brand new long password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.locator('#field-otp[aria-invalid="true"]').waitFor();
    expect(await page.locator('.field-error').innerText()).toBe('must be the 6-digit code from the e-mail');
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
    // Each move asks again in its row, naming the signal; Cancel changes nothing.
    const move = async (name: string, label: string, status: string) => {
      await row(name)
        .getByRole('button', { name: `${label}…` })
        .click();
      await row(name)
        .getByRole('button', { name: `${label} ${name}` })
        .click();
      await row(name).getByText(status).waitFor();
    };
    await row('Cert expires in 5 days').getByRole('button', { name: 'Suppress…' }).click();
    await screenshot(page, 'signal-confirm');
    await row('Cert expires in 5 days').getByRole('button', { name: 'Cancel' }).click();
    await row('Cert expires in 5 days').getByRole('button', { name: 'Suppress…' }).waitFor();
    expect(await row('Cert expires in 5 days').innerText()).toContain('OPEN');
    await move('Disk 91% on db-1', 'Acknowledge', 'ACKNOWLEDGED');
    await move('Error rate 4% on checkout', 'Resolve', 'RESOLVED');
    await move('Cert expires in 5 days', 'Suppress', 'SUPPRESSED');
    await page.context().close();

    const viewing = await openPage([]);
    await viewing.goto(`${client.stack.url}/signals`);
    await signInOn(viewing, viewer);
    await viewing.locator('.rows li', { hasText: 'Disk 91% on db-1' }).waitFor();
    expect(await viewing.locator('.rows li button').count()).toBe(0);
    await viewing.context().close();
  }, 60_000);
  it('lists, creates (showing the key once) and revokes integration keys for an ADMIN', async () => {
    const service = await client.request('POST', `${V1}/service-map`, { name: 'Checkout API' }, admin.auth);
    expectOk(service, 201);
    const page = await openPage([]);
    await page.goto(`${client.stack.url}/integration-keys`);
    await signInOn(page, admin);
    await page.getByText('No integration keys.').waitFor();
    await page.getByLabel('Name').fill('Alertmanager prod');
    await page.getByLabel('Service').selectOption({ label: 'Checkout API' });
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByLabel('Integration key', { exact: true });
    await shown.waitFor();
    const key = await shown.inputValue();
    expect(key).toMatch(/^imsik_/);
    await screenshot(page, 'integration-keys');
    const event = {
      routing_key: key,
      event_action: 'trigger',
      payload: { summary: 'Disk full', source: 'db-1', severity: 'warning' },
    };
    expect((await client.request('POST', `${V1}/events/v2/enqueue`, event)).status).toBe(202);

    await page.getByRole('button', { name: 'Done' }).click();
    const row = page.locator('.rows li', { hasText: 'Alertmanager prod' });
    await row.getByText('Checkout API').waitFor();
    expect(await page.content()).not.toContain(key);
    await row.getByRole('button', { name: 'Revoke', exact: true }).click();
    await row.getByRole('button', { name: 'Revoke Alertmanager prod' }).click();
    await page.getByText('No integration keys.').waitFor();
    expect((await client.request('POST', `${V1}/events/v2/enqueue`, event)).status).toBe(401);
    await page.context().close();

    const engineering = await openPage([]);
    await engineering.goto(`${client.stack.url}/incidents`);
    await signInOn(engineering, engineer);
    await engineering.getByRole('heading', { name: 'Incidents' }).waitFor();
    expect(await engineering.getByRole('link', { name: 'Keys' }).count()).toBe(0);
    await engineering.context().close();
  }, 60_000);

  it('names the product and the last workspace on sign-in, lists open incidents with their age, offers a call link', async () => {
    const resolved = await client.request(
      'POST',
      `${V1}/incident-ticket`,
      { summary: 'Nightly backup late', priority: 'LOW', serviceArea: 'backups' },
      admin.auth,
    );
    expectOk(resolved, 201);
    expectOk(await client.request('POST', `${V1}/incident-ticket/resolve/${resolved.body.data.id}`, {}, admin.auth));
    await onCallFromNow(client, admin, admin.user.id);
    const sms = { phoneNumber: '+14155550123' };
    expectOk(await client.request('POST', `${V1}/integrations/sms/connect`, sms, admin.auth), 201);

    const page = await openPage([]);
    await page.goto(`${client.stack.url}/incidents`);
    await page.getByText('Incident console').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Sign in');
    await signInOn(page, engineer);
    const open = page.locator('.rows li', { hasText: 'Checkout latency above 2 s' });
    expect(await open.locator('.age').innerText()).toMatch(/^opened (just now|\d+ minutes? ago)$/);
    expect(await page.locator('.rows li', { hasText: 'Nightly backup late' }).count()).toBe(0);
    await page.getByLabel('Showing').selectOption({ label: 'Resolved or closed' });
    await page.locator('.rows li', { hasText: 'Nightly backup late' }).waitFor();
    expect(await page.locator('.rows li', { hasText: 'Checkout latency above 2 s' }).count()).toBe(0);
    expect(page.url()).toContain('open=false');

    await page.getByRole('link', { name: 'On call' }).click();
    const call = page.locator('.rows li', { hasText: admin.email }).getByRole('link', { name: 'Call +14155550123' });
    expect(await call.getAttribute('href')).toBe('tel:+14155550123');
    expect((await call.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    expect(
      await page.locator('.rows li', { hasText: engineer.email }).getByRole('link', { name: /^Call/ }).count(),
    ).toBe(0);
    await screenshot(page, 'on-call');

    // The next sign-in on this browser names the workspace it last signed in to.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Console Ops' }).waitFor();
    await screenshot(page, 'sign-in');
    await page.context().close();
  }, 60_000);
});
