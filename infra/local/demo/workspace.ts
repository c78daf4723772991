import { API, type DemoClient, type Headers, inBatches } from './client.ts';
import type { Person } from './people.ts';

const TIMEZONE = 'Europe/Berlin';

/** The service map: name, team, repository, and the services each depends on. */
const SERVICES = [
  { name: 'storefront', team: 'web', repository: 'acme/storefront', dependsOn: ['checkout', 'catalog', 'auth'] },
  { name: 'mobile-api', team: 'web', repository: 'acme/mobile-api', dependsOn: ['checkout', 'catalog', 'auth'] },
  { name: 'checkout', team: 'payments', repository: 'acme/checkout', dependsOn: ['payments-api', 'db'] },
  { name: 'payments-api', team: 'payments', repository: 'acme/payments-api', dependsOn: ['db', 'queue'] },
  { name: 'catalog', team: 'platform', repository: 'acme/catalog', dependsOn: ['db', 'search'] },
  { name: 'auth', team: 'platform', repository: 'acme/auth', dependsOn: ['db'] },
  { name: 'search', team: 'platform', dependsOn: [] },
  { name: 'queue', team: 'platform', dependsOn: [] },
  { name: 'db', team: 'platform', dependsOn: [] },
] as const;

export type ServiceIds = Record<string, string>;

/** IMS configuration with the team's time zone, and SLA tracking on so new incidents get deadlines. */
export const setUpIms = (client: DemoClient, admin: Person): Promise<unknown> =>
  client.call('POST', `${API}/ims/setup`, {
    body: { alertEmail: admin.email, timezone: TIMEZONE, slackChannel: '#incidents', slaEnabled: true },
    headers: admin.auth,
  });

/** Services first (dependencies name them by id), then every edge at once. */
export const buildServiceMap = async (client: DemoClient, auth: Headers): Promise<ServiceIds> => {
  const created = await inBatches(SERVICES, 4, ({ dependsOn: _edges, ...service }) =>
    client.call<{ id: string }>('POST', `${API}/service-map`, {
      body: { ...service, description: `The ${service.name} service` },
      headers: auth,
    }),
  );
  const ids: ServiceIds = Object.fromEntries(
    SERVICES.map((service, index) => [service.name, created[index]?.id ?? '']),
  );
  const edges = SERVICES.flatMap(({ name, dependsOn }) => dependsOn.map((target) => [name, target] as const));
  await inBatches(edges, 4, ([source, target]) =>
    client.call('POST', `${API}/service-map/dependencies`, {
      body: { sourceId: ids[source], targetId: ids[target] },
      headers: auth,
    }),
  );
  return ids;
};

const SLA_POLICIES = [
  { name: 'Critical, any team', priority: 'CRITICAL', response: 5, resolve: 60, uptime: 99.95, team: '*' },
  { name: 'High, any team', priority: 'HIGH', response: 15, resolve: 240, uptime: 99.9, team: '*' },
  { name: 'Medium, payments', priority: 'MEDIUM', response: 60, resolve: 480, uptime: 99.5, team: 'payments' },
  { name: 'Low, any team', priority: 'LOW', response: 240, resolve: 2880, uptime: 99, team: '*' },
];

export const createSlaPolicies = (client: DemoClient, auth: Headers): Promise<unknown[]> =>
  inBatches(SLA_POLICIES, 4, (policy) =>
    client.call('POST', `${API}/sla-policies`, {
      body: {
        name: policy.name,
        priority: policy.priority,
        responseTimeMinutes: policy.response,
        responseThreshold: 95,
        resolveTimeMinutes: policy.resolve,
        resolveThreshold: 90,
        escalationContact: 'oncall-lead@demo.example',
        applicableTeam: policy.team,
        uptimeTarget: policy.uptime,
      },
      headers: auth,
    }),
  );

export const createSilentHours = (client: DemoClient, auth: Headers): Promise<unknown> =>
  client.call('POST', `${API}/silent-hours`, {
    body: {
      rules: [
        {
          name: 'Weeknights',
          startTime: '22:00',
          endTime: '07:00',
          timezone: TIMEZONE,
          daysOfWeek: [1, 2, 3, 4, 5],
          teamScope: 'platform',
        },
        {
          name: 'Weekends',
          startTime: '00:00',
          endTime: '23:59',
          timezone: TIMEZONE,
          daysOfWeek: [6, 7],
          teamScope: 'web',
        },
      ],
    },
    headers: auth,
  });

const isoDate = (date: Date): string => date.toISOString().slice(0, 10);

/** This week's rota: two shifts a day for the engineers, in turn, from yesterday on. */
export const assignOnCall = async (client: DemoClient, auth: Headers, engineerIds: string[], now: Date) => {
  const shifts = Array.from({ length: 7 }, (_, day) => new Date(now.getTime() + (day - 1) * 86_400_000)).flatMap(
    (date, day) => [
      { userId: engineerIds[day % engineerIds.length], date: isoDate(date), startTime: '08:00', endTime: '20:00' },
      {
        userId: engineerIds[(day + 1) % engineerIds.length],
        date: isoDate(date),
        startTime: '20:00',
        endTime: '24:00',
      },
    ],
  );
  return inBatches(shifts, 4, (shift) => client.call('POST', `${API}/assign-member`, { body: shift, headers: auth }));
};

/**
 * Rules beside the two defaults (the first write stores those): disk and database alerts of one
 * service are one incident once two arrive, payment alerts open a CRITICAL one at once, and failed
 * pipelines of a branch are gathered per repository.
 */
export const createCorrelationRules = (client: DemoClient, auth: Headers): Promise<unknown[]> =>
  inBatches(
    [
      {
        name: 'Payments are critical',
        description: 'Any HIGH alert about payments opens a CRITICAL incident at once',
        order: 10,
        match: { severity: { in: ['HIGH'] }, labels: { team: ['payments'] } },
        groupBy: ['serviceId'],
        windowMinutes: 30,
        minSignals: 1,
        action: { priority: 'CRITICAL' },
      },
      {
        name: 'Disk and database pressure',
        description: 'Two MEDIUM-or-higher alerts of one service within 20 minutes',
        order: 20,
        match: { sources: ['metrics-alerts', 'monitoring'], severity: { min: 'MEDIUM' } },
        groupBy: ['serviceId'],
        windowMinutes: 20,
        minSignals: 2,
        action: { priority: 'MEDIUM' },
      },
    ],
    2,
    (rule) => client.call('POST', `${API}/correlation-rules`, { body: rule, headers: auth }),
  );
