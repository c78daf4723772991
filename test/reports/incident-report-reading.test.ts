import { describe, expect, it } from 'vitest';
import { normalizeMetricsAlerts } from '#lib/ingestion/senders/metrics-alerts/normalize.ts';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { normalizeWebhook } from '#lib/ingestion/senders/webhook/normalize.ts';
import type { IncidentReport } from '#lib/reports/incident-report.ts';
import { renderIncidentReportPdf } from '#lib/reports/pdf/render.ts';
import { timelineEntries } from '#lib/reports/pdf/timeline-entries.ts';
import { signalDetails } from '#lib/signals/signal-details.ts';
import type { Signal } from '#lib/signals/signal.ts';
import { loadFixture } from '../ingestion/support.ts';
import { squash, textOf } from '../support/pdf-text.ts';
import { FULL, MINIMAL, event } from './report-fixtures.ts';

const ADA = 'ada@acme.example';
const at = (second: number, millis = 0): string => new Date(Date.UTC(2024, 4, 1, 14, 0, second, millis)).toISOString();
const message = (kind: string, text: string, createdAt: string) => ({ kind, text, actor: ADA, createdAt });

/** Nine changes as the incidents service records them: history events, and thread messages a few ms later. */
const NINE_CHANGES: Pick<IncidentReport, 'history' | 'messages'> = {
  history: [
    event('CREATED', at(0), ADA, { to: 'OPEN' }),
    event('STATUS_CHANGE', at(1), ADA, { from: 'OPEN', to: 'ACKNOWLEDGED' }),
    event('ASSIGNED', at(1, 400), ADA, { from: null, to: ADA }),
    event('PRIORITY_CHANGE', at(2), ADA, { from: 'HIGH', to: 'CRITICAL' }),
    event('COMMENT_ADDED', at(3), ADA, { message: 'Freed 200 GB' }),
    event('STATUS_CHANGE', at(4), ADA, { from: 'ACKNOWLEDGED', to: 'INVESTIGATION' }),
    event('STATUS_CHANGE', at(4, 300), ADA, { from: 'INVESTIGATION', to: 'MITIGATED' }),
    event('FIELD_CHANGE', at(5), ADA, { field: 'region', from: null, to: 'eu-west-1' }),
    { ...event('STATUS_CHANGE', at(9), ADA, { from: 'MITIGATED', to: 'RESOLVED' }), id: 'h-resolved-status' },
    event('RESOLVED', at(9), ADA),
  ],
  messages: [
    message('SYSTEM', `Incident created by ${ADA}`, at(0, 3)),
    message('STATUS_CHANGE', `Status changed from OPEN to ACKNOWLEDGED by ${ADA}`, at(1, 2)),
    message('ASSIGNMENT', `Assigned to ${ADA} by ${ADA}`, at(1, 402)),
    message('PRIORITY_CHANGE', `Priority changed from HIGH to CRITICAL by ${ADA}`, at(2, 1)),
    message('STATUS_CHANGE', `Status changed from ACKNOWLEDGED to INVESTIGATION by ${ADA}`, at(4, 2)),
    message('STATUS_CHANGE', `Status changed from INVESTIGATION to MITIGATED by ${ADA}`, at(4, 302)),
    message('RESOLUTION', `Incident resolved by ${ADA}`, at(9, 5)),
  ],
};

const signalOf = (normalized: NormalizedEvent): Signal => ({
  id: '01HXA0000000000000000000AA',
  status: 'OPEN',
  serviceId: null,
  value: null,
  fingerprint: normalized.fingerprint,
  occurrences: 1,
  firstSeenAt: normalized.signal.triggeredAt ?? '',
  lastSeenAt: normalized.signal.triggeredAt ?? '',
  incidentId: null,
  notes: [],
  acknowledgedAt: null,
  resolvedAt: null,
  suppressedAt: null,
  createdAt: '2024-05-01T14:00:00.000Z',
  updatedAt: '2024-05-01T14:00:00.000Z',
  ...normalized.signal,
  triggeredAt: normalized.signal.triggeredAt ?? '2024-05-01T14:00:00.000Z',
  metadata: normalized.signal.metadata ?? {},
});

describe('the timeline of an incident report', () => {
  it('shows each change once, history and thread merged, with the richer text', () => {
    const entries = timelineEntries({ ...MINIMAL, ...NINE_CHANGES });
    expect(entries.map(({ what }) => what)).toEqual([
      'Incident created',
      'Status changed from OPEN to ACKNOWLEDGED',
      `Assigned to ${ADA}`,
      'Priority changed from HIGH to CRITICAL',
      'Comment: Freed 200 GB',
      'Status changed from ACKNOWLEDGED to INVESTIGATION',
      'Status changed from INVESTIGATION to MITIGATED',
      'region changed: none -> eu-west-1',
      'Status changed from MITIGATED to RESOLVED',
    ]);
    expect(entries.every(({ actor }) => actor === ADA)).toBe(true);
  });

  it('keeps apart records of other actors, other topics and other times', () => {
    const entries = timelineEntries({
      ...MINIMAL,
      history: [event('STATUS_CHANGE', at(0), ADA, { from: 'OPEN', to: 'ACKNOWLEDGED' })],
      messages: [
        { ...message('STATUS_CHANGE', 'Status changed from OPEN to ACKNOWLEDGED', at(0, 5)), actor: 'system' },
        message('PRIORITY_CHANGE', 'Priority changed from LOW to HIGH', at(0, 6)),
        message('STATUS_CHANGE', 'Status changed from OPEN to ACKNOWLEDGED', at(30)),
      ],
    });
    expect(entries).toHaveLength(4);
  });
});

describe('the timeline of an incident with a playbook run', () => {
  const started = 'Playbook "Disk full" (version 2) started: execution 01HXA0000000000000000000EX';

  it('shows a playbook start once, though history and thread both record it', () => {
    const entries = timelineEntries({
      ...MINIMAL,
      history: [
        event('CREATED', at(0), ADA, { to: 'OPEN' }),
        event('PLAYBOOK_STARTED', at(1, 2), ADA, { to: '01HXA0000000000000000000EX', message: started }),
      ],
      messages: [message('SYSTEM', `Incident created by ${ADA}`, at(0, 3)), message('SYSTEM', started, at(1))],
    });
    expect(entries.map(({ what }) => what)).toEqual(['Incident created', started]);
  });

  it('never takes a playbook start for the creation it follows closely', () => {
    const entries = timelineEntries({
      ...MINIMAL,
      history: [event('CREATED', at(0), ADA, { to: 'OPEN' })],
      messages: [message('SYSTEM', started, at(0, 500))],
    });
    expect(entries.map(({ what }) => what)).toEqual(['Incident created', started]);
  });
});

describe('the alerts of an incident report', () => {
  it("takes an Alertmanager alert's labels and summary as it was sent", () => {
    const { body } = loadFixture('metrics-alerts', 'captured-firing-2alerts.json');
    const [first] = normalizeMetricsAlerts(body, {}, new Date());
    expect(first).toBeDefined();
    expect(signalDetails(signalOf(first as NormalizedEvent))).toMatchObject({
      name: 'DiskFull',
      summary: 'Disk almost full on db-1',
      labels: [
        ['alertname', 'DiskFull'],
        ['instance', 'db-1'],
        ['job', 'node'],
        ['severity', 'warning'],
      ],
    });
  });

  it('links a runbook_url annotation, and only a web address', () => {
    const alert = (runbook: string) =>
      normalizeMetricsAlerts(
        {
          receiver: 'hook',
          status: 'firing',
          alerts: [{ status: 'firing', labels: { alertname: 'HighLatency' }, annotations: { runbook_url: runbook } }],
        },
        {},
        new Date(),
      )[0] as NormalizedEvent;
    expect(signalDetails(signalOf(alert('https://runbooks.example/latency'))).runbookUrl).toBe(
      'https://runbooks.example/latency',
    );
    expect(signalDetails(signalOf(alert('javascript:alert(1)'))).runbookUrl).toBeUndefined();
  });

  it("takes a generic webhook's scalar metadata as its labels, leaving out what is shown otherwise", () => {
    const [normalized] = normalizeWebhook(
      {
        source: 'uptime-checker',
        title: 'Storefront down',
        severity: 'critical',
        status: 'firing',
        message: 'HTTP 503',
        metadata: { runbookUrl: 'https://runbooks.example/shop', region: 'eu', fingerprint: 'x', checks: [1, 2] },
      },
      {},
      new Date(),
    );
    expect(signalDetails(signalOf(normalized as NormalizedEvent))).toMatchObject({
      summary: 'HTTP 503',
      runbookUrl: 'https://runbooks.example/shop',
      labels: [['region', 'eu']],
    });
  });
});

describe('the rendered report', () => {
  it('prints times to the second in the workspace zone, named in the header and the timeline', async () => {
    const text = squash(textOf(await renderIncidentReportPdf(FULL)));
    expect(text).toContain(squash('Time (Europe/Berlin)'));
    expect(text).toContain(squash('2024-05-01 16:05:12'));
    expect(text).not.toContain(squash('2024-05-01 14:05'));
    expect(text).toContain(squash('Generated 2024-05-02 11:30:00 Europe/Berlin'));
  });

  it('tells customers what happened in sentences, then resolution, root cause and the alerts', async () => {
    const text = squash(textOf(await renderIncidentReportPdf(FULL)));
    for (const phrase of [
      'The incident affected the Payments service in production (eu-west-1).',
      'It was opened at 2024-05-01 16:05:12 and resolved at 2024-05-01 17:52:03, 1 h 46 min later.',
      'The impact: about 12,400 failed checkout attempts',
      'It reached EU storefronts (DE, FR, NL, ES)',
      'Resolution and root cause',
      'Rolled back release 2024.05.01-3 and restored 200 connections per pool.',
      'A staging-only pool size was promoted to production with the release.',
      'Runbook: https://runbooks.acme.example/checkout-errors',
      'teampayments',
    ]) {
      expect(text).toContain(squash(phrase));
    }
    expect(text).not.toContain(squash('Description for customers'));
  });

  it('prints the times written inside its texts in the workspace zone too', async () => {
    const description = 'Opened from a signal:\n- [HIGH] CheckoutErrors (metrics-alerts) at 2024-05-01T14:04:40.000Z';
    const text = squash(
      textOf(await renderIncidentReportPdf({ ...FULL, incident: { ...FULL.incident, description } })),
    );
    expect(text).toContain(squash('[HIGH] CheckoutErrors (metrics-alerts) at 2024-05-01 16:04:40'));
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
  });

  it('says when the analysis was made, as of a time before the incident was resolved', async () => {
    const made = (asOf: string) =>
      renderIncidentReportPdf({
        ...FULL,
        analysis: { ...(FULL.analysis as NonNullable<IncidentReport['analysis']>), asOf, completedAt: asOf },
      });
    expect(squash(textOf(await made('2024-05-01T15:30:00.000Z')))).toContain(
      squash('as of 2024-05-01 17:30:00, before the incident was resolved'),
    );
    expect(squash(textOf(await made('2024-05-01T17:02:00.000Z')))).toContain(
      squash('made 2024-05-01 19:02:00, after the incident was resolved'),
    );
  });

  it('says how an open incident stands', async () => {
    const text = squash(textOf(await renderIncidentReportPdf(MINIMAL)));
    expect(text).toContain(squash('It was opened at 2024-05-02 09:00:00 and is not yet acknowledged.'));
  });
});
