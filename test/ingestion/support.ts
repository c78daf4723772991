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

const oneOf = (allowed: readonly string[], value: string): boolean => allowed.includes(value);

/**
 * What does not hold of what holds for every event of every sender, whatever the payload: each as a line that
 * names the field. A list rather than an `expect` per field, so a fuzz of thousands of events asserts once.
 */
export const wellFormednessProblems = (event: NormalizedEvent, sender: IngestionSender): string[] => {
  const { signal, pipelineRun: run, change } = event;
  const checks: [boolean, string][] = [
    [signal.source === sender, `signal.source is ${signal.source}, not ${sender}`],
    [signal.name.trim() !== '', 'signal.name is blank'],
    [signal.type.trim() !== '', 'signal.type is blank'],
    [oneOf(['LOW', 'MEDIUM', 'HIGH'], signal.severity), `signal.severity is ${signal.severity}`],
    [oneOf(['trigger', 'resolve', 'record'], event.action), `action is ${event.action}`],
    [event.action !== 'record' || signal.severity === 'LOW', `a record has severity ${signal.severity}`],
    [isIso(signal.triggeredAt), `signal.triggeredAt is ${signal.triggeredAt}`],
    [typeof signal.metadata === 'object', 'signal.metadata is not an object'],
    [event.fingerprint.trim() !== '', 'fingerprint is blank'],
    [signal.value === undefined || Number.isFinite(signal.value), `signal.value is ${signal.value}`],
  ];
  if (run) {
    checks.push(
      [run.runKey === `${run.provider}-${run.providerRunId}`, `pipelineRun.runKey is ${run.runKey}`],
      [oneOf(['success', 'failure', 'cancelled', 'in_progress'], run.status), `pipelineRun.status is ${run.status}`],
      [/^[^/\s]+(\/[^/\s]+)+$/.test(run.repository), `pipelineRun.repository is ${run.repository}`],
      [isIso(run.startedAt), `pipelineRun.startedAt is ${run.startedAt}`],
      [isIso(run.updatedAt), `pipelineRun.updatedAt is ${run.updatedAt}`],
      [
        run.status === 'in_progress' ? run.finishedAt === null : isIso(run.finishedAt),
        `pipelineRun.finishedAt is ${run.finishedAt} with status ${run.status}`,
      ],
      ...run.jobs.map((job): [boolean, string] => [
        oneOf(['success', 'failure', 'skipped', 'cancelled'], job.status),
        `pipelineRun job ${job.name} has status ${job.status}`,
      ]),
      [run.rawPayload !== undefined, 'pipelineRun.rawPayload is missing'],
    );
  }
  if (change) {
    checks.push(
      [
        change.changeKey === `${change.provider}-${change.providerDeploymentId}`,
        `change.changeKey is ${change.changeKey}`,
      ],
      [
        oneOf(['PENDING', 'IN_PROGRESS', 'SUCCEEDED', 'FAILED', 'CANCELLED', 'INACTIVE'], change.status),
        `change.status is ${change.status}`,
      ],
      [isIso(change.updatedAt), `change.updatedAt is ${change.updatedAt}`],
    );
  }
  return checks.filter(([holds]) => !holds).map(([, problem]) => problem);
};

export const expectWellFormed = (event: NormalizedEvent, sender: IngestionSender): void => {
  expect(wellFormednessProblems(event, sender)).toEqual([]);
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
