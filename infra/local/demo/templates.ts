import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The senders' real payloads, as the ingestion tests use them (test/fixtures/README.md names their
 * sources). The demo sends them as they are but for times and ids, so they read as this week's events.
 */
const TEMPLATES_DIR = fileURLToPath(new URL('../../../test/fixtures/ingestion/', import.meta.url));

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export const loadTemplate = (sender: string, file: string): JsonValue =>
  JSON.parse(readFileSync(`${TEMPLATES_DIR}${sender}/${file}`, 'utf8')) as JsonValue;

/** Fields that identify one event or run: changed per copy, so copies are new events, not redeliveries. */
const ID_FIELDS = new Set([
  'id',
  'uid',
  'fingerprint',
  'incident_key',
  'head_sha',
  'sha',
  'after',
  'run_number',
  'number',
  'iid',
  'node_id',
]);

/** Objects that name who or where (a repository, a person, a service): the same in every copy. */
const STABLE_PARENTS = new Set([
  'repository',
  'project',
  'sender',
  'user',
  'owner',
  'organization',
  'org',
  'agent',
  'service',
  'installation',
  'creator',
  'actor',
  'triggering_actor',
  'author',
  'committer',
  'pusher',
  'head_repository',
  'webhook',
  'escalation_policy',
  'assignees',
  'assignee',
  'teams',
]);

const TIMESTAMP = /^(\d{4})-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2}| UTC)?$/;

/** Times before 1970 are senders' "unset" values (Alertmanager's `0001-01-01`), kept as they are. */
const timeOf = (value: string): number | undefined => {
  const match = TIMESTAMP.exec(value);
  if (!match || Number(match[1]) < 1970) return undefined;
  const time = Date.parse(value.replace(' UTC', 'Z').replace(' ', 'T'));
  return Number.isNaN(time) ? undefined : time;
};

const formatLike = (original: string, time: number): string => {
  const iso = new Date(time).toISOString();
  if (original.endsWith(' UTC')) return `${iso.slice(0, 19).replace('T', ' ')} UTC`;
  return original.includes('.') ? iso : `${iso.slice(0, 19)}Z`;
};

/** Another id of the same shape: each digit, lower- and upper-case letter replaced by one derived from the salt. */
const reshapeId = (value: string, salt: string): string => {
  const bytes = createHash('sha256').update(`${salt}:${value}`).digest();
  return [...value]
    .map((char, index) => {
      const byte = bytes[index % bytes.length] ?? 0;
      if (/[0-9]/.test(char)) return String(byte % 10);
      if (/[a-f]/.test(char) && /^[0-9a-f-]+$/.test(value)) return 'abcdef'[byte % 6];
      if (/[a-z]/.test(char)) return String.fromCharCode(97 + (byte % 26));
      if (/[A-Z]/.test(char)) return String.fromCharCode(65 + (byte % 26));
      return char;
    })
    .join('');
};

/** Times of what a sender plans to do later (a paging tool's escalation and auto-resolve), not of the event. */
const PLANS = new Set(['pending_actions']);

/** When the payload's event happened: its latest time that is not a plan. */
const latestTime = (value: JsonValue): number => {
  if (typeof value === 'string') return timeOf(value) ?? Number.NEGATIVE_INFINITY;
  if (Array.isArray(value)) return Math.max(Number.NEGATIVE_INFINITY, ...value.map(latestTime));
  if (value && typeof value === 'object') {
    const facts = Object.entries(value).filter(([key]) => !PLANS.has(key));
    return Math.max(Number.NEGATIVE_INFINITY, ...facts.map(([, item]) => latestTime(item)));
  }
  return Number.NEGATIVE_INFINITY;
};

/**
 * The fixtures' own names (the code hosts' example repositories, a paging tool's test incidents, an
 * Alertmanager test's `api` and `node`) would show as the demo's incident titles, services and
 * repositories; each becomes a name of the demo's own, the service map's where one fits. A longer name
 * comes before a part of it, so a repository is renamed whole before its owner alone.
 */
const DEMO_NAMES: readonly (readonly [string, string])[] = [
  ['Codertocat/Hello-World', 'acme/checkout'],
  ['octo-org/octo-repo', 'acme/mobile-api'],
  ['gitlab-org/gitlab-test', 'acme/payments-api'],
  ['jsmithy2/release-tools-fake', 'acme/release-tools'],
  ['mike/diaspora', 'acme/storefront'],
  ['root/test-deployment-webhooks', 'acme/catalog'],
  ['circleci/webhook-service', 'acme/auth'],
  ['Hello-World', 'checkout'],
  ['Codertocat', 'acme'],
  ['octo-repo', 'mobile-api'],
  ['octo-org', 'acme'],
  ['gitlab-test', 'payments-api'],
  ['gitlab-org', 'acme'],
  ['Gitlab Test', 'Payments API'],
  ['Gitlab Org', 'Acme'],
  ['release-tools-fake', 'release-tools'],
  ['test-deployment-webhooks', 'catalog'],
  ['Diaspora', 'Storefront'],
  ['diaspora', 'storefront'],
  ['webhook-service', 'auth'],
  ['Update the README with new information.', 'Retry payment confirmations with backoff'],
  ['Octocoders-linter', 'lint'],
  ['"welcome"', '"release"'],
  ['Test Incident 3', 'Search cluster health red'],
  ['pig208.pagerduty.com', 'acme-ops.pagerduty.com'],
  ['pig208', 'search'],
  ['My new incident', 'Checkout error rate above 5%'],
  ['Production XDB Cluster', 'checkout'],
  ['"service":"api"', '"service":"mobile-api"'],
  ['"job":"node"', '"job":"db"'],
];

const withDemoNames = (payload: JsonValue): JsonValue =>
  JSON.parse(
    DEMO_NAMES.reduce((text, [fixture, demo]) => text.split(fixture).join(demo), JSON.stringify(payload)),
  ) as JsonValue;

/**
 * A copy of a sender's payload that happened at `at`: every time moved by the same amount (so durations
 * stay), the event's ids replaced, the same way for the same `copy` number, and the fixture's names the
 * demo's.
 */
export const freshCopy = (template: JsonValue, at: Date, copy: number): JsonValue => {
  const shift = at.getTime() - latestTime(template);
  const salt = `copy-${copy}`;
  const walk = (value: JsonValue, key: string | undefined, stable: boolean): JsonValue => {
    if (Array.isArray(value)) return value.map((item) => walk(item, key, stable));
    if (value && typeof value === 'object') {
      const inside = stable || (key !== undefined && STABLE_PARENTS.has(key));
      return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, walk(item, name, inside)]));
    }
    const isId = !stable && key !== undefined && ID_FIELDS.has(key);
    if (typeof value === 'number') return isId && Number.isInteger(value) ? value + copy : value;
    if (typeof value !== 'string') return value;
    const time = timeOf(value);
    if (time !== undefined && Number.isFinite(shift)) return formatLike(value, time + shift);
    return isId ? reshapeId(value, salt) : value;
  };
  return withDemoNames(walk(template, undefined, false));
};
