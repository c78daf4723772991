import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullName, MEMBER_NAME } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { team, type Team } from '../support/team.ts';
import { INCIDENTS, ISO_INSTANT, V1, ackPathIn, incidentFromAlert, mailTo } from './support.ts';

let client: TestClient;
let ops: Team;
let incident: Record<string, any>;
/** The on-call member as what people read names them: by name, not e-mail address. */
const ON_CALL = fullName(MEMBER_NAME);
const startsAt = new Date(Date.now() - 12 * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');

beforeAll(async () => {
  client = await startTestStack(':memory:', undefined, { workers: true });
  ops = await team(client, 'Pagers');
  incident = await incidentFromAlert(client, ops, startsAt);
  await client.stack.deliveriesIdle();
});

afterAll(async () => {
  await client?.stack.stop();
});

describe('the page says what is broken', () => {
  it("titles the incident by the alert's summary and describes it in words, on the workspace's clock", async () => {
    expect(incident.summary).toBe('Checkout error rate above 5% on checkout');
    const reply = await client.request('GET', `${INCIDENTS}/${incident.id}`, undefined, ops.admin.auth);
    expect(reply.body.data.description).toMatch(/^Opened from an alert: \[HIGH\] CheckoutErrorRateHigh/);
    expect(reply.body.data.description).toContain('(Europe/Berlin)');
    expect(reply.body.data.description).not.toMatch(ISO_INSTANT);
  });

  it('mails the description, the runbook, since when, how many alerts and who is on call, and no ISO instant', async () => {
    const [page] = (await mailTo(client, ops.onCall.email)).filter(({ subject }) => subject.includes(incident.id));
    expect(page?.subject).toBe(`[HIGH] ${incident.id} opened: Checkout error rate above 5% on checkout`);
    const text = page?.text ?? '';
    expect(text).toContain('Details: POST /pay answers 502 for 7% of requests since the last deploy.');
    expect(text).toContain('Runbook: https://runbooks.example.com/checkout/errors');
    expect(text).toContain('Service: checkout');
    expect(text).toMatch(/Since: \d\d:\d\d on \d+ \w+ \d{4} \(Europe\/Berlin\), 1[12] minutes ago/);
    expect(text).toContain('Alerts: 1 alert');
    expect(text).toContain(`On call: ${ON_CALL}`);
    expect(text).not.toMatch(ISO_INSTANT);
  });
});

describe('the acknowledge link answers people with pages', () => {
  const pageOf = async () => {
    const [page] = (await mailTo(client, ops.onCall.email)).filter(({ subject }) => subject.includes('opened'));
    return ackPathIn(page as { text: string });
  };

  it('answers a forged or cut link with an HTML page and the same 400', async () => {
    const link = await pageOf();
    const [payload, kid, mac] = (link.split('/').pop() as string).split('.');
    const forged = `${payload}x.${kid}.${mac}`;
    for (const path of [`${V1}/ack/${forged}`, `${V1}/ack/not-a-token`]) {
      for (const method of ['GET', 'POST']) {
        const reply = await client.request(method, path);
        expect(reply.status, reply.text).toBe(400);
        expect(reply.headers.get('content-type')).toMatch(/^text\/html/);
        expect(reply.text).toContain('This link is not valid');
      }
    }
    const program = await client.request('GET', `${V1}/ack/${forged}`, undefined, { accept: 'application/json' });
    expect(program.body.errors).toEqual(['token: not a link this service made']);
  });

  it('shows the incident with a link to it in the console, in words, and acknowledges once', async () => {
    const link = await pageOf();
    const page = await client.request('GET', link);
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain(`href="../../../incidents/${incident.id}"`);
    expect(page.text).toContain('(Europe/Berlin)');
    expect(page.text).not.toMatch(ISO_INSTANT);
    expect(new URL(`../../../incidents/${incident.id}`, `${client.stack.url}${link}`).pathname).toBe(
      `/incidents/${incident.id}`,
    );

    const done = await client.request('POST', link);
    expect(done.status, done.text).toBe(200);
    expect(done.text).toContain(`Acknowledged by ${ON_CALL} at `);
    expect(done.text).toContain('through the link in e-mail');
    expect(done.text).not.toMatch(ISO_INSTANT);

    const again = await client.request('POST', link);
    expect(again.status, again.text).toBe(409);
    expect(again.headers.get('content-type')).toMatch(/^text\/html/);
    expect(again.text).toMatch(new RegExp(`It was used by ${ON_CALL} at \\d\\d:\\d\\d on `));
    expect(again.text).toContain(`href="../../../incidents/${incident.id}"`);
    expect(again.text).not.toMatch(ISO_INSTANT);
  });

  it('tells the others paged for the incident who acknowledged it, when and how', async () => {
    await client.stack.deliveriesIdle();
    const news = (await mailTo(client, ops.alertEmail)).filter(({ subject }) => subject.includes('acknowledged by'));
    expect(news.map(({ subject }) => subject)).toEqual([
      `[HIGH] ${incident.id} acknowledged by ${ON_CALL}: Checkout error rate above 5% on checkout`,
    ]);
    expect(news[0]?.text).toContain('How: through the acknowledge link in e-mail');
    expect(news[0]?.text).toMatch(new RegExp(`On it: ${ON_CALL}, acknowledged (just now|1 minute ago)`));
    expect(news[0]?.text).not.toMatch(ISO_INSTANT);
    const toActor = (await mailTo(client, ops.onCall.email)).filter(({ subject }) =>
      subject.includes('acknowledged by'),
    );
    expect(toActor).toEqual([]);
  });
});

describe('unknown console paths', () => {
  it('answer a browser with an HTML not-found page leading back to the console, and programs with JSON', async () => {
    const page = await client.request('GET', '/incidents/INC-1/nothing-here', undefined, { accept: 'text/html' });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('Page not found');
    expect(page.text).toContain('href="../../"');
    const program = await client.request('GET', '/incidents/INC-1/nothing-here');
    expect(program.status).toBe(404);
    expect(program.body.message).toMatch(/^Route not found/);
  });
});

describe('resolving', () => {
  it("tells everyone paged who resolved it, when and why, and resolves the incident's open signals", async () => {
    const resolved = await client.request(
      'POST',
      `${INCIDENTS}/resolve/${incident.id}`,
      { resolution: 'Rolled back the 04:02 deploy.' },
      ops.onCall.auth,
    );
    expect(resolved.status, resolved.text).toBe(200);
    await client.stack.deliveriesIdle();
    const [news] = (await mailTo(client, ops.alertEmail)).filter(({ subject }) => subject.includes('resolved by'));
    expect(news?.subject).toBe(`[HIGH] ${incident.id} resolved by ${ON_CALL}: ${incident.summary}`);
    expect(news?.text).toMatch(new RegExp(`Resolved: by ${ON_CALL} at \\d\\d:\\d\\d on .* \\(Europe/Berlin\\)`));
    expect(news?.text).toContain('Resolution: Rolled back the 04:02 deploy.');
    expect(news?.text).not.toMatch(ISO_INSTANT);

    const signals = await client.request('GET', `${INCIDENTS}/${incident.id}/signals`, undefined, ops.admin.auth);
    expect(signals.body.data).toMatchObject([
      { status: 'RESOLVED', notes: [{ move: 'resolve', text: `Resolved with incident ${incident.id}` }] },
    ]);
  });

  it('resolves the open signals of an incident a PUT moves to RESOLVED or CLOSED, as POST /resolve does', async () => {
    for (const [status, minutesAgo] of [
      ['RESOLVED', 5],
      ['CLOSED', 4],
    ] as const) {
      const later = await incidentFromAlert(client, ops, new Date(Date.now() - minutesAgo * 60_000).toISOString());
      const updated = await client.request('PUT', `${INCIDENTS}/${later.id}`, { status }, ops.onCall.auth);
      expect(updated.status, updated.text).toBe(200);
      const signals = await client.request('GET', `${INCIDENTS}/${later.id}/signals`, undefined, ops.admin.auth);
      expect(signals.body.data).toMatchObject([
        { status: 'RESOLVED', notes: [{ move: 'resolve', text: `Resolved with incident ${later.id}` }] },
      ]);
    }
  });
});
