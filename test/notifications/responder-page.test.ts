import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { INCIDENTS, ISO_INSTANT, incidentFromAlert, mailTo, team, type Team } from './support.ts';

let client: TestClient;
let ops: Team;
let incident: Record<string, any>;
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
    expect(text).toContain(`On call: ${ops.onCall.email}`);
    expect(text).not.toMatch(ISO_INSTANT);
  });
});
