import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { NormalizedEvent, Normalizer } from '#lib/ingestion/normalized-event.ts';
import { INGESTION_SENDERS, type IngestionSender, senderNamed } from '#lib/ingestion/senders/index.ts';
import { SENDER_FIXTURES } from '../support/sender-fixtures.ts';

/**
 * The senders' real payloads, copied unchanged from the project's shared fixtures (test/fixtures/README.md
 * names their sources and licenses), so a clone tests without anything beside it.
 */
export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/ingestion', import.meta.url));

/** Every sender's normalizer, loaded (the service loads each on its route's first delivery). */
export const normalizers = Object.fromEntries(
  await Promise.all(INGESTION_SENDERS.map(async (sender) => [sender, await senderNamed(sender).normalizer()] as const)),
) as Readonly<Record<IngestionSender, Normalizer>>;

export const RECEIVED_AT = new Date('2030-01-01T00:00:00.000Z');

export interface Fixture {
  sender: IngestionSender;
  file: string;
  /** The bytes the sender posted. */
  raw: string;
  body: unknown;
  /** Lower-cased, as the HTTP layer hands them on. */
  headers: Record<string, string>;
}

const SECRET = 'fixture-secret';

/**
 * The headers the real sender puts on a request with this body (its folder's HEADERS.md and README.md), signed
 * with a secret of its own when the sender signs: no test workspace sets it, so the signature is only carried.
 */
export const headersFor = (
  sender: IngestionSender,
  file: string,
  raw: string,
  body: unknown,
): Record<string, string> => ({
  'content-type': 'application/json',
  ...SENDER_FIXTURES[sender].headers?.(file, body),
  ...senderNamed(sender).signature?.sign(raw, SECRET).headers,
});

/**
 * A fixture as its sender posts it. Two files wrap the request: the captured Alertmanager request (its raw body
 * and its real headers) and the go-pagerduty vector (its raw body and signature).
 */
export const loadFixture = (sender: IngestionSender, file: string): Fixture => {
  const text = readFileSync(join(FIXTURES_DIR, sender, file), 'utf8');
  if (file === 'captured-request-with-headers.json') {
    const captured = JSON.parse(text) as { headers: [string, string][]; body_raw: string };
    const headers = Object.fromEntries(captured.headers.map(([name, value]) => [name.toLowerCase(), value]));
    return { sender, file, raw: captured.body_raw, body: JSON.parse(captured.body_raw), headers };
  }
  if (file === 'go-pagerduty-signed-vector.json') {
    const vector = JSON.parse(text) as { header: string; signature: string; body: string };
    const body: unknown = JSON.parse(vector.body);
    const headers = { ...headersFor(sender, file, vector.body, body), [vector.header.toLowerCase()]: vector.signature };
    return { sender, file, raw: vector.body, body, headers };
  }
  const body: unknown = JSON.parse(text);
  return { sender, file, raw: text, body, headers: headersFor(sender, file, text, body) };
};

/** Every sender's fixtures, each sender's in the order of their names (test/ingestion/sender-registry.test.ts). */
export const allFixtureFiles = (): { sender: IngestionSender; file: string }[] =>
  INGESTION_SENDERS.flatMap((sender) => SENDER_FIXTURES[sender].files.toSorted().map((file) => ({ sender, file })));

const isIso = (value: unknown): boolean =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString() === value;

/** What holds for every event of every sender, whatever the payload. */
export const expectWellFormed = (event: NormalizedEvent, sender: IngestionSender): void => {
  expect(event.signal.source).toBe(sender);
  expect(event.signal.name.trim()).not.toBe('');
  expect(event.signal.type.trim()).not.toBe('');
  expect(['LOW', 'MEDIUM', 'HIGH']).toContain(event.signal.severity);
  expect(['trigger', 'resolve', 'record']).toContain(event.action);
  if (event.action === 'record') expect(event.signal.severity).toBe('LOW');
  expect(isIso(event.signal.triggeredAt)).toBe(true);
  expect(typeof event.signal.metadata).toBe('object');
  expect(event.fingerprint.trim()).not.toBe('');
  if (event.signal.value !== undefined) expect(Number.isFinite(event.signal.value)).toBe(true);
  const run = event.pipelineRun;
  if (run) {
    expect(run.runKey).toBe(`${run.provider}-${run.providerRunId}`);
    expect(['success', 'failure', 'cancelled', 'in_progress']).toContain(run.status);
    expect(run.repository).toMatch(/^[^/\s]+(\/[^/\s]+)+$/);
    expect(isIso(run.startedAt)).toBe(true);
    expect(isIso(run.updatedAt)).toBe(true);
    if (run.status === 'in_progress') expect(run.finishedAt).toBeNull();
    else expect(isIso(run.finishedAt)).toBe(true);
    for (const job of run.jobs) expect(['success', 'failure', 'skipped', 'cancelled']).toContain(job.status);
    expect(run.rawPayload).toBeDefined();
  }
  const change = event.change;
  if (change) {
    expect(change.changeKey).toBe(`${change.provider}-${change.providerDeploymentId}`);
    expect(['PENDING', 'IN_PROGRESS', 'SUCCEEDED', 'FAILED', 'CANCELLED', 'INACTIVE']).toContain(change.status);
    expect(isIso(change.updatedAt)).toBe(true);
  }
};

/**
 * A deep copy of a real payload with fields set (`undefined` deletes), by dotted path (`alerts.0.status`): the
 * variants a fixture does not show, such as the failed twin of a successful run.
 */
export const withFields = (body: unknown, fields: Record<string, unknown>): unknown => {
  const copy = structuredClone(body);
  for (const [path, value] of Object.entries(fields)) {
    const names = path.split('.');
    const last = names.pop() ?? '';
    let parent = copy as Record<string, unknown>;
    for (const name of names) {
      if (typeof parent[name] !== 'object' || parent[name] === null) parent[name] = {};
      parent = parent[name] as Record<string, unknown>;
    }
    if (value === undefined) delete parent[last];
    else parent[last] = value;
  }
  return copy;
};

/** The one event a payload must give. */
export const only = (events: NormalizedEvent[]): NormalizedEvent => {
  expect(events).toHaveLength(1);
  return events[0] as NormalizedEvent;
};

/** The one event of a payload, checked well formed: for the variants the real payloads do not show (a failed run, a warning, a recovery), made from those payloads. */
export const normalizeOne = (
  sender: IngestionSender,
  body: unknown,
  headers: Record<string, string> = {},
): NormalizedEvent => {
  const event = only(normalizers[sender](body, headers, RECEIVED_AT));
  expectWellFormed(event, sender);
  return event;
};
