import type { Agenda } from './agenda.ts';
import { API, type DemoClient, type Headers } from './client.ts';
import { INGESTION_SENDERS, type IngestionSender, senderNamed } from '#lib/ingestion/senders/index.ts';
import { freshCopy, type JsonValue, loadTemplate } from './templates.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK_DAYS = 7;
/** How long after an event its sender's webhook arrives. */
const DELIVERY_LATENCY_MS = 20_000;

/** One delivery of a sender: which template, when it happened, and which copy (its ids) it is. */
interface Delivery {
  sender: IngestionSender;
  file: string;
  daysAgo: number;
  hoursAgo?: number;
  copy: number;
}

/**
 * A week of the senders' own payloads. Alert pairs share a copy number, so the resolution carries the
 * fingerprint of the alert it ends.
 */
const deliveries = (): Delivery[] => {
  const days = Array.from({ length: WEEK_DAYS }, (_, day) => day);
  return [
    ...days.flatMap((day): Delivery[] => [
      { sender: 'codehost-a', file: 'workflow_run.requested.3.json', daysAgo: day, hoursAgo: 3, copy: day + 1 },
      { sender: 'codehost-a', file: 'workflow_run.completed.0.json', daysAgo: day, hoursAgo: 2, copy: day + 1 },
      { sender: 'codehost-a', file: 'push.0.json', daysAgo: day, hoursAgo: 4, copy: day + 1 },
      { sender: 'codehost-b', file: 'pipeline.json', daysAgo: day, hoursAgo: 5, copy: day + 1 },
      { sender: 'codehost-b', file: 'job.json', daysAgo: day, hoursAgo: 5, copy: day + 1 },
    ]),
    ...[0, 2, 4].flatMap((day): Delivery[] => [
      { sender: 'codehost-a', file: 'deployment_status.created.0.json', daysAgo: day, hoursAgo: 1, copy: day + 1 },
      { sender: 'codehost-a', file: 'check_run.completed.1.json', daysAgo: day, hoursAgo: 2, copy: day + 1 },
      { sender: 'codehost-a', file: 'pull_request.opened.0.json', daysAgo: day, hoursAgo: 6, copy: day + 1 },
      { sender: 'codehost-b', file: 'deployment.json', daysAgo: day, hoursAgo: 1, copy: day + 1 },
      { sender: 'codehost-b', file: 'push.json', daysAgo: day, hoursAgo: 6, copy: day + 1 },
      {
        sender: 'codehost-c',
        file: 'docs-01-workflow-completed-github-oauth-bitbucket-cloud.json',
        daysAgo: day,
        copy: day + 1,
      },
      {
        sender: 'codehost-c',
        file: 'docs-02-job-completed-github-oauth-bitbucket-cloud.json',
        daysAgo: day,
        copy: day + 1,
      },
    ]),
    { sender: 'metrics-alerts', file: 'captured-firing-2alerts.json', daysAgo: 5, copy: 1 },
    { sender: 'metrics-alerts', file: 'captured-firing-2alerts.json', daysAgo: 1, copy: 2 },
    { sender: 'metrics-alerts', file: 'captured.json', daysAgo: 3, hoursAgo: 1, copy: 3 },
    { sender: 'metrics-alerts', file: 'captured-resolved.json', daysAgo: 3, copy: 3 },
    { sender: 'metrics-alerts', file: 'captured.json', daysAgo: 0, hoursAgo: 1, copy: 4 },
    { sender: 'paging', file: 'v2-01-incident_trigger.json', daysAgo: 4, hoursAgo: 2, copy: 1 },
    { sender: 'paging', file: 'v2-03-incident_resolve.json', daysAgo: 4, copy: 1 },
    { sender: 'paging', file: 'triggered_v3.json', daysAgo: 2, copy: 2 },
    { sender: 'orchestrator', file: 'event-02-Normal-Scheduled-Pod.json', daysAgo: 6, copy: 1 },
    { sender: 'orchestrator', file: 'event-09-Normal-Killing-Pod.json', daysAgo: 6, hoursAgo: -1, copy: 1 },
  ];
};

const atOf = (now: Date, daysAgo: number, hoursAgo = 0): Date =>
  new Date(now.getTime() - daysAgo * DAY - hoursAgo * HOUR - 10 * 60_000);

/** A payload of the demo's own and when its event happened. */
interface Timed {
  at: Date;
  body: JsonValue;
}

/** The monitoring tool sends its user's template with the variables filled in (monitoring/README.md). */
const monitoringEvents = (now: Date): Timed[] => {
  const template = loadTemplate('monitoring', 'default-payload-template.json');
  const fill = (title: string, body: string, at: Date, id: number): Timed => ({
    at,
    body: JSON.parse(
      JSON.stringify(template)
        .replace('$EVENT_MSG', body)
        .replace('$LAST_UPDATED', String(at.getTime()))
        .replace('$EVENT_TYPE', 'metric_alert_monitor')
        .replace('$EVENT_TITLE', title)
        .replace('$DATE', String(at.getTime()))
        .replace('$ORG_ID', '11287')
        .replace('$ORG_NAME', 'Acme Ops')
        .replace('$ID', String(id)),
    ) as JsonValue,
  });
  return [6, 3, 1].flatMap((day, index) => [
    fill(
      '[Triggered] Search p99 latency above 800 ms',
      'p99 latency of search is 1.2 s',
      atOf(now, day, 2),
      7000 + index * 2,
    ),
    fill(
      '[Recovered] Search p99 latency above 800 ms',
      'p99 latency of search is 310 ms',
      atOf(now, day, 1),
      7001 + index * 2,
    ),
  ]);
};

/** The generic webhook's canonical form, as a home-grown uptime checker would post it. */
const uptimeChecks = (now: Date): Timed[] =>
  [5, 2].flatMap((day) => [
    {
      at: atOf(now, day, 1),
      body: {
        source: 'uptime-checker',
        title: 'storefront homepage returns 503',
        severity: 'high',
        status: 'firing',
        message: 'GET https://shop.demo.example/ answered 503 three times in a row',
        metadata: { region: 'eu-central-1', check: 'homepage', service: 'storefront' },
        timestamp: atOf(now, day, 1).toISOString(),
      },
    },
    {
      at: atOf(now, day, 0.5),
      body: {
        source: 'uptime-checker',
        title: 'storefront homepage returns 503',
        severity: 'high',
        status: 'resolved',
        message: 'GET https://shop.demo.example/ answers 200 again',
        metadata: { region: 'eu-central-1', check: 'homepage', service: 'storefront' },
        timestamp: atOf(now, day, 0.5).toISOString(),
      },
    },
  ]);

type SenderHeaders = Partial<Record<IngestionSender, (file: string, body: JsonValue) => Headers>>;

/** The headers each sender puts beside a body, as its fixtures describe them (lib/ingestion/senders/<name>/). */
export const loadSenderHeaders = async (): Promise<SenderHeaders> =>
  Object.fromEntries(
    await Promise.all(INGESTION_SENDERS.map(async (name) => [name, (await senderNamed(name).fixtures?.())?.headers])),
  );

const post = (client: DemoClient, sender: string, body: JsonValue, headers: Headers) =>
  client.call('POST', `${API}/ingestion/${sender}`, { body, headers, expect: 202 });

const arrivalOf = (at: Date): Date => new Date(at.getTime() + DELIVERY_LATENCY_MS);

/** Each sender posts with its own key, as each tool would be configured with one, when its event happened. */
export const planWebhooks = (
  agenda: Agenda,
  client: DemoClient,
  keys: Record<string, Headers>,
  headersOf: SenderHeaders,
  now: Date,
): number => {
  const keyOf = (sender: string): Headers => {
    const key = keys[sender];
    if (!key) throw new Error(`no API key for ${sender}`);
    return key;
  };
  const fromTemplates = deliveries().map(({ sender, file, daysAgo, hoursAgo, copy }) => {
    const at = atOf(now, daysAgo, hoursAgo);
    const body = freshCopy(loadTemplate(sender, file), at, copy);
    return { sender, at, body, headers: { ...headersOf[sender]?.(file, body), ...keyOf(sender) } };
  });
  const own = [
    ...monitoringEvents(now).map((event) => ({ sender: 'monitoring', ...event, headers: keyOf('monitoring') })),
    ...uptimeChecks(now).map((event) => ({ sender: 'webhook', ...event, headers: keyOf('webhook') })),
  ];
  const all = [...fromTemplates, ...own];
  for (const { sender, at, body, headers } of all) agenda.at(arrivalOf(at), () => post(client, sender, body, headers));
  return all.length;
};

const BACKGROUND = [
  { name: 'CPU above 70%', serviceId: 'catalog', team: 'platform' },
  { name: 'Slow query over 500 ms', serviceId: 'db', team: 'platform' },
  { name: 'Queue depth above 1000', serviceId: 'queue', team: 'platform' },
  { name: 'Login failures above baseline', serviceId: 'auth', team: 'platform' },
  { name: 'Card declines above baseline', serviceId: 'payments-api', team: 'payments' },
];

/**
 * The week's low-level noise from the team's own checks, every three hours, each round through the bulk
 * route as the checks report it; and the two HIGH signals that became incidents of the week.
 */
export const planCheckSignals = (agenda: Agenda, client: DemoClient, auth: Headers, now: Date): number => {
  const rounds = Array.from({ length: (WEEK_DAYS * 24) / 3 }, (_, slot) => {
    const at = new Date(now.getTime() - slot * 3 * HOUR - 5 * MINUTE);
    const signals = BACKGROUND.filter((_, index) => (slot + index) % 2 === 0).map(({ name, serviceId, team }) => ({
      name,
      source: 'synthetic-checks',
      type: 'metric',
      severity: 'LOW',
      serviceId,
      value: 70 + ((slot * 7) % 25),
      metadata: { labels: { team, environment: 'production' } },
      triggeredAt: at.toISOString(),
    }));
    return { at, signals };
  });
  const serious = [
    {
      name: 'Checkout 5xx above 2%',
      source: 'synthetic-checks',
      severity: 'HIGH',
      serviceId: 'checkout',
      value: 4.7,
      metadata: { labels: { team: 'payments', environment: 'production' } },
      triggeredAt: atOf(now, 2, 3).toISOString(),
    },
    {
      name: 'Replication lag above 30 s',
      source: 'synthetic-checks',
      severity: 'HIGH',
      serviceId: 'db',
      value: 42,
      metadata: { labels: { team: 'platform', environment: 'production' } },
      triggeredAt: atOf(now, 0, 5).toISOString(),
    },
  ].map((signal) => ({ at: new Date(signal.triggeredAt), signals: [signal] }));
  for (const { at, signals } of [...rounds, ...serious]) {
    agenda.at(arrivalOf(at), () => client.call('POST', `${API}/signals/bulk`, { body: { signals }, headers: auth }));
  }
  return [...rounds, ...serious].reduce((total, { signals }) => total + signals.length, 0);
};
