import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import type { IngestionSender } from '#lib/ingestion/senders/index.ts';
import {
  FIXTURES_DIR,
  RECEIVED_AT,
  allFixtureFiles,
  expectWellFormed,
  headersFor,
  loadFixture,
  withFields,
  normalizers,
} from './support.ts';
import { ALERTING_EXPECTATIONS } from './expected/alerting.ts';
import { AWS_EXPECTATIONS } from './expected/aws.ts';
import { CODE_HOST_EXPECTATIONS } from './expected/code-hosts.ts';

const normalize = (sender: IngestionSender, body: unknown, headers: Record<string, string> = {}) =>
  normalizers[sender](body, headers, RECEIVED_AT);

/** What each real payload must give; every fixture file has an entry. */
const EXPECTED: Record<string, (events: NormalizedEvent[]) => void> = {
  ...CODE_HOST_EXPECTATIONS,
  ...ALERTING_EXPECTATIONS,
  ...AWS_EXPECTATIONS,
};

describe('every real payload through its sender normalizer', () => {
  const fixtures = allFixtureFiles();

  it('has an expectation for every fixture file, and a file for every expectation', () => {
    expect(fixtures.map(({ sender, file }) => `${sender}/${file}`).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(fixtures)('$sender/$file', ({ sender, file }) => {
    const fixture = loadFixture(sender, file);
    const events = normalize(sender, fixture.body, fixture.headers);
    for (const event of events) expectWellFormed(event, sender);
    EXPECTED[`${sender}/${file}`]?.(events);
  });

  it.each(fixtures)('$sender/$file: the same payload again gives the same fingerprints', ({ sender, file }) => {
    const fixture = loadFixture(sender, file);
    const first = normalize(sender, fixture.body, fixture.headers);
    const again = normalizers[sender](
      structuredClone(fixture.body),
      headersFor(sender, file, fixture.raw, fixture.body),
      new Date(RECEIVED_AT.getTime() + 60_000),
    );
    expect(again.map((event) => [event.signal.type, event.fingerprint])).toEqual(
      first.map((event) => [event.signal.type, event.fingerprint]),
    );
  });
});

describe('the go-pagerduty signed vector', () => {
  it('is the exact signed body, and it parses', () => {
    const vector = JSON.parse(
      readFileSync(join(FIXTURES_DIR, 'paging', 'go-pagerduty-signed-vector.json'), 'utf8'),
    ) as {
      secret: string;
      signature: string;
      body: string;
    };
    const signature = createHmac('sha256', vector.secret).update(vector.body).digest('hex');
    expect(vector.signature).toBe(`v1=${signature}`);
    const [event] = normalize('paging', JSON.parse(vector.body));
    expect(event?.fingerprint).toBe('PGR0VU2');
  });
});

describe('metrics alerts', () => {
  const firing = loadFixture('metrics-alerts', 'captured.json').body;
  const resolved = loadFixture('metrics-alerts', 'captured-resolved.json').body;
  const identity = (event: NormalizedEvent | undefined) => [event?.signal.type, event?.fingerprint];

  it('gives two different alerts of one group different fingerprints', () => {
    const [first, second] = normalize(
      'metrics-alerts',
      loadFixture('metrics-alerts', 'captured-firing-2alerts.json').body,
    );
    expect(first?.fingerprint).not.toBe(second?.fingerprint);
  });

  it('gives a resolved alert the identity of its firing twin, with or without its own fingerprint', () => {
    expect(identity(normalize('metrics-alerts', resolved)[0])).toEqual(
      identity(normalize('metrics-alerts', firing)[0]),
    );
    const [bareFiring] = normalize('metrics-alerts', withFields(firing, { 'alerts.0.fingerprint': undefined }));
    const [bareResolved] = normalize('metrics-alerts', withFields(resolved, { 'alerts.0.fingerprint': undefined }));
    expect(bareFiring?.fingerprint).toBe(
      '{alertname="HighLatency",instance="web-1",service="api",severity="critical"}',
    );
    expect(identity(bareResolved)).toEqual(identity(bareFiring));
  });

  it('sorts labels, so their order on the wire does not matter', () => {
    const reordered = withFields(firing, {
      'alerts.0.fingerprint': undefined,
      'alerts.0.labels': { severity: 'critical', service: 'api', instance: 'web-1', alertname: 'HighLatency' },
    });
    expect(normalize('metrics-alerts', reordered)[0]?.fingerprint).toBe(
      '{alertname="HighLatency",instance="web-1",service="api",severity="critical"}',
    );
  });

  it('decides per alert, maps severity labels, and takes the job when there is no service label', () => {
    const mixed = withFields(loadFixture('metrics-alerts', 'captured-firing-2alerts.json').body, {
      'alerts.1.status': 'resolved',
      'alerts.0.labels.severity': 'page',
      'alerts.0.annotations.value': '97.5',
    });
    const [first, second] = normalize('metrics-alerts', mixed);
    expect(first).toMatchObject({ action: 'trigger', signal: { severity: 'HIGH', value: 97.5, serviceId: 'node' } });
    expect(second).toMatchObject({ action: 'resolve', signal: { severity: 'MEDIUM' } });
    const levels = ['critical', 'warning', 'info', 'unheard-of'].map(
      (level) =>
        normalize('metrics-alerts', withFields(firing, { 'alerts.0.labels.severity': level }))[0]?.signal.severity,
    );
    expect(levels).toEqual(['HIGH', 'MEDIUM', 'LOW', 'MEDIUM']);
    const unlabelled = withFields(firing, { 'alerts.0.labels': { alertname: 'HighLatency' } });
    expect(normalize('metrics-alerts', unlabelled)[0]?.signal).toMatchObject({
      severity: 'MEDIUM',
      serviceId: undefined,
    });
  });
});
