import { fileURLToPath } from 'node:url';
import { createHmac, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { NORMALIZERS } from '#lib/ingestion/index.ts';
import {
  INGESTION_SENDERS,
  type IngestionSender,
  type NormalizedEvent,
  type Normalizer,
} from '#lib/ingestion/normalized-event.ts';

/**
 * The senders' real payloads, copied unchanged from the project's shared fixtures (test/fixtures/README.md
 * names their sources and licenses), so a clone tests without anything beside it.
 */
export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/ingestion', import.meta.url));

/** Every sender's normalizer, loaded (the service loads each on its route's first delivery). */
export const normalizers: Readonly<Record<IngestionSender, Normalizer>> = Object.fromEntries(
  await Promise.all(INGESTION_SENDERS.map(async (sender) => [sender, await NORMALIZERS[sender]()] as const)),
) as Record<IngestionSender, Normalizer>;

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
const hmacHex = (secret: string, raw: string) => createHmac('sha256', secret).update(raw).digest('hex');

/** Code host B's `X-Gitlab-Event` per `object_kind` (codehost-b/HEADERS.md). */
const GITLAB_EVENTS: Readonly<Record<string, string>> = {
  push: 'Push Hook',
  tag_push: 'Tag Push Hook',
  merge_request: 'Merge Request Hook',
  pipeline: 'Pipeline Hook',
  build: 'Job Hook',
  deployment: 'Deployment Hook',
};

/** The headers each real sender puts on a request with this body (the folders' HEADERS.md and README.md). */
export const headersFor = (
  sender: IngestionSender,
  file: string,
  raw: string,
  body: unknown,
): Record<string, string> => {
  const json = { 'content-type': 'application/json' };
  const object = body as Record<string, unknown>;
  switch (sender) {
    case 'codehost-a':
      return {
        ...json,
        'user-agent': 'GitHub-Hookshot/a1b2c3d',
        'x-github-event': file.split('.')[0] ?? '',
        'x-github-delivery': randomUUID(),
        'x-hub-signature-256': `sha256=${hmacHex(SECRET, raw)}`,
        'x-github-hook-id': '109948940',
        'x-github-hook-installation-target-id': '186853002',
        'x-github-hook-installation-target-type': 'repository',
      };
    case 'codehost-b':
      return {
        ...json,
        'user-agent': 'GitLab/16.9.0',
        'x-gitlab-event': GITLAB_EVENTS[String(object.object_kind)] ?? 'System Hook',
        'x-gitlab-token': SECRET,
        'x-gitlab-instance': 'https://gitlab.example.com',
        'x-gitlab-event-uuid': randomUUID(),
        'x-gitlab-webhook-uuid': randomUUID(),
      };
    case 'codehost-c':
      return {
        ...json,
        'user-agent': 'CircleCI-Webhook/1.0',
        'circleci-event-type': String(object.type),
        'circleci-signature': `v1=${hmacHex(SECRET, raw)}`,
      };
    case 'paging':
      return 'event' in object
        ? {
            ...json,
            'user-agent': 'PagerDuty-Webhook/V3.0',
            'x-webhook-id': randomUUID(),
            'x-webhook-subscription': 'PSDUE2H',
            'x-pagerduty-signature': `v1=${hmacHex(SECRET, raw)}`,
          }
        : { ...json, 'user-agent': 'PagerDuty-Webhook/V2.0' };
    case 'metrics-alerts':
      return { ...json, 'user-agent': 'Alertmanager/0.25.0', authorization: 'ApiKey secret123' };
    default:
      return { ...json, 'x-api-key': 'ims_w.k.s' };
  }
};

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

/** Every payload file under the fixtures, notes and configuration (`.md`, `.yml`) aside. */
export const allFixtureFiles = (): { sender: IngestionSender; file: string }[] =>
  INGESTION_SENDERS.flatMap((sender) => {
    const dir = join(FIXTURES_DIR, sender);
    let files: string[];
    try {
      files = readdirSync(dir);
    } catch {
      return [];
    }
    return files.filter((file) => !/\.(md|ya?ml)$/.test(file)).map((file) => ({ sender, file }));
  });

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
