import { readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { type BenchCall, signUpBenchAdmin, startBenchServiceProcess } from './bench-service.ts';
import { runConcurrently } from './load.ts';

/**
 * The alert storm of issue 32: many services failing at once through `npm start`'s stack (its queue workers
 * on), measured from each service's first accepted alert to its incident, and every alert accounted for.
 */
export interface StormShape {
  services: number;
  alertsPerService: number;
  /** Deliveries of each alert: Alertmanager sends a firing alert again with every notification of its group. */
  deliveries: number;
  inFlight: number;
}

interface Percentiles {
  count: number;
  p50ms: number;
  p99ms: number;
  maxms: number;
}

export interface StormResult {
  shape: StormShape;
  acceptedPerSecond: number;
  /** Each service's first accepted alert to the creation of its incident. */
  firstAlertToIncident: Percentiles;
  /** Each service's first accepted alert to the page (the e-mail to the alert address) about its incident. */
  firstAlertToPage: Percentiles;
  incidentsPerService: string;
  pagesPerService: string;
  signals: number;
  occurrences: number;
  /** Signals missing (never stored or never linked) and signals stored twice for one alert. */
  lost: number;
  doubled: number;
  /** From the storm's first delivery until every signal was correlated. */
  drainedAfterMs: number;
}

export interface SteadyResult {
  alertsPerSecond: number;
  /** Every alert's acceptance to its signal's link to an incident (the opening one's included). */
  alertToIncident: Percentiles;
}

const PAGER = 'pager@example.com';
const DRAIN_LIMIT_MS = 600_000;

const percentiles = (samples: readonly number[]): Percentiles => {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN);
  return { count: sorted.length, p50ms: at(0.5), p99ms: at(0.99), maxms: at(1) };
};

const fixture = JSON.parse(
  await readFile(new URL('../test/fixtures/ingestion/metrics-alerts/captured.json', import.meta.url), 'utf8'),
);

/** A real Alertmanager notification carrying one critical alert of `service`, distinct by `alertname`. */
const notification = (service: string, alertName: string, startsAt: string) => ({
  ...fixture,
  alerts: fixture.alerts.map((alert: Record<string, any>) => ({
    ...alert,
    labels: { ...alert.labels, alertname: alertName, service, severity: 'critical', instance: `${service}-1` },
    startsAt,
    fingerprint: `${service}-${alertName}`,
  })),
});

/**
 * The alert address confirms, as its owner would, before it is paged (docs/security.md, "Who a page may reach"):
 * the link of its confirmation mail, POSTed. A commit from before that rule sends no such mail, and pages it as is.
 */
const confirmPager = async (call: BenchCall): Promise<void> => {
  const mails = (await call('GET', `/_local/mailbox?to=${PAGER}`)) as { subject: string; token?: string }[];
  const token = mails.find(({ subject }) => subject.includes('asks to send incident alerts'))?.token;
  if (token) await call('POST', `/api/v1/business/outside-addresses/confirm/${token}`);
};

/** The workspace's admin, an ingestion key, the alert address pages go to, and the services on the map. */
export const prepareAlertingWorkspace = async (call: BenchCall, services: readonly string[]) => {
  const { accessToken } = await signUpBenchAdmin(call);
  const auth = { authorization: `Bearer ${accessToken}` };
  await call('POST', '/api/v1/ims/setup', { alertEmail: PAGER, timezone: 'UTC' }, auth);
  await confirmPager(call);
  for (const name of services) await call('POST', '/api/v1/service-map', { name }, auth);
  const { key } = await call(
    'POST',
    '/api/v1/apikey/createapikey',
    { name: 'storm', environment: 'PRODUCTION', scopes: ['incidents:read', 'ingestion:write'] },
    auth,
  );
  const keyAuth = { 'x-api-key': key as string };
  const ingest = (service: string, alertName: string, startsAt: string) =>
    call('POST', '/api/v1/ingestion/metrics-alerts', notification(service, alertName, startsAt), keyAuth);
  return { auth, keyAuth, ingest };
};

/** Every item of a list route, page after page. */
const readAll = async (call: BenchCall, path: string, headers: Record<string, string>): Promise<any[]> => {
  const items: any[] = [];
  for (let page = 1; ; page += 1) {
    const data = (await call(
      'GET',
      `${path}${path.includes('?') ? '&' : '?'}limit=100&page=${page}`,
      undefined,
      headers,
    )) as any[];
    items.push(...data);
    if (data.length < 100) return items;
  }
};

/** Waits until correlation has taken `signals` signals off its pending index (the CorrelationLag samples). */
const correlated = async (call: BenchCall, signals: number): Promise<void> => {
  const until = Date.now() + DRAIN_LIMIT_MS;
  while (Date.now() < until) {
    const { durations } = (await call('GET', '/_local/metrics')) as {
      durations: { CorrelationLag: { count: number } };
    };
    if (durations.CorrelationLag.count >= signals) return;
    await delay(50);
  }
  throw new Error(`correlation did not take ${signals} signals within ${DRAIN_LIMIT_MS / 1000} s`);
};

/**
 * The storm's deliveries in the order they are sent: the services fail one after another, each sending its
 * alerts with every alert's repeats spread over the service's turn (alert 1, 2, ... then all again), so a
 * later service's first alert arrives behind the signals of every service before it.
 */
const stormOrder = ({ services, alertsPerService, deliveries }: StormShape) =>
  Array.from({ length: services }, (_, s) =>
    Array.from({ length: deliveries * alertsPerService }, (_, n) => ({
      service: `svc-${String(s + 1).padStart(2, '0')}`,
      alertName: `Alert${(n % alertsPerService) + 1}`,
    })),
  ).flat();

const summarise = (values: readonly number[]): string => {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].map(([value, services]) => `${value} x${services}`).join(', ');
};

/**
 * The storm, then a steady rate of alerts on fresh services, against one service process with its workers
 * (of `tree`, another commit's, for the side-by-side bench; this one by default).
 */
export const measureAlertStorm = async (
  work: string,
  shape: StormShape,
  steady: { alertsPerSecond: number; seconds: number; services: number },
  tree?: string,
): Promise<{ storm: StormResult; steady: SteadyResult }> => {
  const measured = await startBenchServiceProcess(work, { workers: true, tree });
  try {
    const services = Array.from({ length: shape.services }, (_, s) => `svc-${String(s + 1).padStart(2, '0')}`);
    const steadyServices = Array.from({ length: steady.services }, (_, s) => `steady-${s + 1}`);
    const { auth, ingest } = await prepareAlertingWorkspace(measured.call, [...services, ...steadyServices]);
    const startsAt = new Date().toISOString();
    const order = stormOrder(shape);
    const firstAccepted = new Map<string, number>();
    const started = Date.now();
    const rate = await runConcurrently(order.length, shape.inFlight, async (index) => {
      const { service, alertName } = order[index] as { service: string; alertName: string };
      await ingest(service, alertName, startsAt);
      if (!firstAccepted.has(service)) firstAccepted.set(service, Date.now());
    });
    const expectedSignals = shape.services * shape.alertsPerService;
    await correlated(measured.call, expectedSignals);
    const drainedAfterMs = Date.now() - started;

    const incidents = await readAll(measured.call, '/api/v1/incident-ticket', auth);
    const signals = (await readAll(measured.call, '/api/v1/signals?source=metrics-alerts', auth)).filter((signal) =>
      String(signal.serviceId).startsWith('svc-'),
    );
    await measured.call('GET', `/_local/mailbox?to=${PAGER}`);
    const pages = (await measured.call('GET', `/_local/mailbox?to=${PAGER}`)) as { subject: string; sentAt: string }[];
    const incidentOf = new Map<string, any[]>(services.map((service) => [service, []]));
    for (const incident of incidents) incidentOf.get(incident.serviceArea)?.push(incident);
    const byId = new Map(incidents.map((incident) => [incident.id as string, incident]));
    const pagesOf = (service: string) =>
      pages.filter((page) => incidentOf.get(service)?.some((incident) => page.subject.includes(` ${incident.id} `)));
    const fingerprints = new Set(signals.map((signal) => signal.fingerprint));
    const linkedRight = signals.filter(
      (signal) => signal.incidentId && byId.get(signal.incidentId)?.serviceArea === signal.serviceId,
    );
    const sinceFirst = (service: string, at: string | undefined) =>
      at === undefined ? Number.NaN : Date.parse(at) - (firstAccepted.get(service) ?? Number.NaN);
    const storm: StormResult = {
      shape,
      acceptedPerSecond: rate.perSecond,
      firstAlertToIncident: percentiles(
        services.map((service) => sinceFirst(service, incidentOf.get(service)?.[0]?.createdAt)),
      ),
      firstAlertToPage: percentiles(
        services.map((service) =>
          sinceFirst(service, pagesOf(service).sort((a, b) => a.sentAt.localeCompare(b.sentAt))[0]?.sentAt),
        ),
      ),
      incidentsPerService: summarise(services.map((service) => incidentOf.get(service)?.length ?? 0)),
      pagesPerService: summarise(services.map((service) => pagesOf(service).length)),
      signals: signals.length,
      occurrences: signals.reduce((sum, signal) => sum + signal.occurrences, 0),
      lost: expectedSignals - Math.min(fingerprints.size, linkedRight.length),
      doubled: signals.length - fingerprints.size,
      drainedAfterMs,
    };

    // Steady: alerts at a fixed rate, each service's alerts in turn, open loop as senders are.
    const total = steady.alertsPerSecond * steady.seconds;
    const acceptedAt = new Map<string, number>();
    const steadyStart = Date.now() + 100;
    await Promise.all(
      Array.from({ length: total }, async (_, n) => {
        await delay(steadyStart + (n * 1000) / steady.alertsPerSecond - Date.now());
        const service = steadyServices[n % steadyServices.length] as string;
        const { signalId } = (await ingest(service, `Steady${n}`, new Date().toISOString())) as { signalId: string };
        acceptedAt.set(signalId, Date.now());
      }),
    );
    await correlated(measured.call, expectedSignals + total);
    const steadyIncidents = (await readAll(measured.call, '/api/v1/incident-ticket', auth)).filter((incident) =>
      String(incident.serviceArea).startsWith('steady-'),
    );
    const linked = (
      await Promise.all(
        steadyIncidents.map((incident) =>
          measured.call('GET', `/api/v1/incident-ticket/${incident.id}/signals`, undefined, auth),
        ),
      )
    ).flat() as { id: string; linkedAt: string }[];
    const latencies = [...acceptedAt].map(([signalId, at]) => {
      const link = linked.find((signal) => signal.id === signalId);
      return link ? Date.parse(link.linkedAt) - at : Number.POSITIVE_INFINITY;
    });
    return {
      storm,
      steady: { alertsPerSecond: steady.alertsPerSecond, alertToIncident: percentiles(latencies) },
    };
  } finally {
    await measured.stop();
  }
};
