import { expect } from 'vitest';
import type { TestClient } from '../support/local-stack.ts';
import type { Team } from '../support/team.ts';

export const V1 = '/api/v1';
export const INCIDENTS = `${V1}/incident-ticket`;
/** An ISO-8601 instant, as no text for people may carry one. */
export const ISO_INSTANT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** Alertmanager's webhook body (version 4) with one firing alert that carries a summary, a description and a runbook. */
export const alertmanagerAlert = (startsAt: string) => ({
  version: '4',
  receiver: 'ops',
  status: 'firing',
  groupKey: '{}:{alertname="CheckoutErrorRateHigh"}',
  alerts: [
    {
      status: 'firing',
      labels: { alertname: 'CheckoutErrorRateHigh', severity: 'critical', service: 'checkout', env: 'production' },
      annotations: {
        summary: 'Checkout error rate above 5%',
        description: 'POST /pay answers 502 for 7% of requests since the last deploy.',
        runbook_url: 'https://runbooks.example.com/checkout/errors',
      },
      startsAt,
      generatorURL: 'http://prometheus:9090/graph',
      fingerprint: `checkout-${startsAt}`,
    },
  ],
});

/** Posts the alert and answers the (open) incident correlation opened for it. */
export const incidentFromAlert = async (client: TestClient, { admin, ingest }: Team, startsAt: string) => {
  const posted = await client.request(
    'POST',
    `${V1}/ingestion/metrics-alerts`,
    JSON.stringify(alertmanagerAlert(startsAt)),
    ingest,
  );
  expect(posted.status, posted.text).toBe(202);
  await client.stack.workers?.idle();
  const list = await client.request('GET', INCIDENTS, undefined, admin.auth);
  const opened = (list.body.data as Record<string, any>[]).find(({ status }) => status === 'OPEN');
  if (!opened) throw new Error('no incident was opened for the alert');
  return opened;
};

export const mailTo = async (client: TestClient, email: string): Promise<{ subject: string; text: string }[]> =>
  (await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`)).body.data;

/** The acknowledge link a mail carries, as a path on this server. */
export const ackPathIn = (mail: { text: string }): string => {
  const url = /Acknowledge: (\S+)/.exec(mail.text)?.[1];
  if (!url) throw new Error(`no acknowledge link in: ${mail.text}`);
  return new URL(url).pathname;
};
