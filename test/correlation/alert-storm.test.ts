import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeaders, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { confirmOutsideAddress } from '../support/outside-addresses.ts';

/**
 * Issue 32's alert storm at a small size, through the whole stack with its queue workers on: services
 * failing one after another, each with distinct critical alerts, every alert delivered three times, many
 * deliveries in flight. Its timing is `npm run bench`'s (docs/performance.md); here only what must hold at
 * any size: every delivery accepted, one signal per alert with all its occurrences, every signal in its
 * service's incident, one incident and one page per service.
 */
const SERVICES = 4;
const ALERTS = 6;
const DELIVERIES = 3;
const IN_FLIGHT = 16;
const PAGER = 'storm-pager@example.com';

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/ingestion/metrics-alerts/captured.json', import.meta.url), 'utf8'),
);
const notification = (service: string, alertName: string) => ({
  ...fixture,
  alerts: fixture.alerts.map((alert: Record<string, any>) => ({
    ...alert,
    labels: { ...alert.labels, alertname: alertName, service, severity: 'critical' },
    fingerprint: `${service}-${alertName}`,
  })),
});

let client: TestClient;
let admin: SignedIn;
let key: Record<string, string>;

beforeAll(async () => {
  client = await startTestStack(':memory:', undefined, { workers: true });
  admin = await signUpBusiness(client);
  expect(
    (await client.request('POST', '/api/v1/ims/setup', { alertEmail: PAGER, timezone: 'UTC' }, admin.auth)).status,
  ).toBe(201);
  await confirmOutsideAddress(client, PAGER);
  key = await apiKeyHeaders(client, admin, ['ingestion:write', 'incidents:read']);
});

afterAll(async () => {
  await client.stack.stop();
});

describe('an alert storm', () => {
  it('opens one incident and sends one page per service, every alert in it once with all its deliveries', async () => {
    const services = Array.from({ length: SERVICES }, (_, s) => `storm-svc-${s + 1}`);
    const deliveries = services.flatMap((service) =>
      Array.from({ length: ALERTS * DELIVERIES }, (_, n) => ({ service, alertName: `StormAlert${n % ALERTS}` })),
    );
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        for (let index = next++; index < deliveries.length; index = next++) {
          const { service, alertName } = deliveries[index] as { service: string; alertName: string };
          const reply = await client.request(
            'POST',
            '/api/v1/ingestion/metrics-alerts',
            notification(service, alertName),
            key,
          );
          statuses.push(reply.status);
        }
      }),
    );
    expect(statuses).toEqual(deliveries.map(() => 202));
    await client.stack.workers?.idle();
    await client.stack.deliveriesIdle();

    const signals = (await client.request('GET', '/api/v1/signals?limit=100', undefined, key)).body.data as any[];
    expect(signals).toHaveLength(SERVICES * ALERTS);
    expect(new Set(signals.map((signal) => signal.fingerprint)).size).toBe(SERVICES * ALERTS);
    expect(signals.every((signal) => signal.occurrences === DELIVERIES)).toBe(true);

    const incidents = (await client.request('GET', '/api/v1/incident-ticket?limit=100', undefined, key)).body
      .data as any[];
    expect(incidents.map((incident) => incident.serviceArea).sort()).toEqual([...services].sort());
    for (const incident of incidents) {
      const linked = (await client.request('GET', `/api/v1/incident-ticket/${incident.id}/signals`, undefined, key))
        .body.data as any[];
      expect(linked).toHaveLength(ALERTS);
      expect(linked.every((signal) => signal.serviceId === incident.serviceArea)).toBe(true);
      const history = (
        await client.request('GET', `/api/v1/tickets/history?ticketId=${incident.id}&limit=100`, undefined, admin.auth)
      ).body.data as any[];
      expect(history.filter((event) => event.event === 'SIGNAL_LINKED')).toHaveLength(ALERTS);
    }
    expect(signals.every((signal) => incidents.some((incident) => incident.id === signal.incidentId))).toBe(true);

    const pages = (
      (await client.request('GET', `/_local/mailbox?to=${PAGER}`)).body.data as { subject: string }[]
    ).filter(({ subject }) => subject.startsWith('['));
    for (const incident of incidents)
      expect(
        pages.filter((page) => page.subject.includes(` ${incident.id} `)),
        incident.id,
      ).toHaveLength(1);
    expect(pages).toHaveLength(SERVICES);
  }, 120_000);
});
