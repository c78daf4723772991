import { readFileSync } from 'node:fs';
import type { RouteGroup, RouteSpec } from '#lib/http/route.ts';
import { ROUTED_SENDERS, senderNamed } from '#lib/ingestion/senders/index.ts';
import { ingestRouteKey } from '#lib/ingestion/senders/sender.ts';
import { SENDER_FIXTURES } from './sender-fixtures.ts';
import { ROUTE_GROUPS } from '#lib/routes/index.ts';
import type { RunningBundle } from './built-bundles.ts';
import { apiKeyThroughBundle, send, signUpThroughBundle, type BundleCaller } from './bundle-requests.ts';
import type { BundleStack } from './bundle-stack.ts';
import { samplePart, samplePath, sampleQuery } from './route-samples.ts';

/**
 * Fields the schemas alone do not say how to fill (a time of day, a time zone, one field of many):
 * merged over the derived sample, so these routes get past validation to their services.
 */
const BODY_OVERRIDES: Record<string, Record<string, unknown>> = {
  'incidents.updateIncident': { summary: 'Probe summary' },
  'problems.updateProblem': { title: 'Probe title' },
  'correlation-rules.updateRule': { name: 'Probe rule' },
  'on-call.assignMember': { startTime: '09:00', endTime: '17:00' },
  'business.setupIms': { timezone: 'UTC' },
  'business.updateImsConfig': { timezone: 'UTC' },
  'business.updateSsoSettings': { domains: ['example.com'] },
  'ingestion.ingestWebhook': { source: 'probe', title: 'Probe alert', severity: 'high', status: 'firing' },
  // Past the size a signal item keeps inline: the metadata goes to the payload bucket, and reads come back from it.
  'signals.createSignal': { metadata: { log: 'x'.repeat(20 * 1024) } },
};

/**
 * The ingestion routes' payloads are the senders' own: each sender's first fixture. A sender whose events come
 * wrapped in an envelope of its own takes what its fixtures are not (SNS's, signed): it gets the derived sample.
 */
const FIXTURE_BODIES: Record<string, string> = Object.fromEntries(
  ROUTED_SENDERS.flatMap((name) => {
    const [first] = SENDER_FIXTURES[name].files;
    return first && !senderNamed(name).envelope ? [[`ingestion.${ingestRouteKey(name)}`, `${name}/${first}`]] : [];
  }),
);

const fixtureBody = (file: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/ingestion/${file}`, import.meta.url), 'utf8'));

/** The names by which a group's routes refer to the entity it created last, in paths and in bodies. */
const ENTITY_ID_NAMES = ['id', 'ticketId', 'incidentId'];

/** Which auth a route's request carries: a Bearer token, or for ingestion-only routes an API key. */
const credentialsFor = (auth: string, caller: BundleCaller, apiKey: Record<string, string>): Record<string, string> => {
  if (auth === 'public') return {};
  return auth === 'apiKey' ? apiKey : caller.bearer;
};

interface Served {
  route: string;
  status: number;
  message: unknown;
}

const isCreate = (route: RouteSpec): boolean => route.method === 'POST' && !route.path.includes(':');

/** Creates first and deletes last, so the routes between them find the entity the group created. */
const probeOrder = (routes: Record<string, RouteSpec>): [string, RouteSpec][] => {
  const entries = Object.entries(routes);
  const deletes = entries.filter(([, route]) => route.method === 'DELETE');
  const creates = entries.filter(([, route]) => isCreate(route));
  return [...creates, ...entries.filter((entry) => !creates.includes(entry) && !deletes.includes(entry)), ...deletes];
};

const bodyFor = (group: string, key: string, route: RouteSpec, known: Record<string, string>): unknown => {
  if (route.method === 'GET' || route.method === 'DELETE') return undefined;
  const fixture = FIXTURE_BODIES[`${group}.${key}`];
  if (fixture) return fixtureBody(fixture);
  const sample = { ...(samplePart(route.request?.body) as object) } as Record<string, unknown>;
  for (const name of Object.keys(sample)) if (known[name]) sample[name] = known[name];
  return { ...sample, ...BODY_OVERRIDES[`${group}.${key}`] };
};

/**
 * One request per route of the group by a caller of its own workspace. A route naming an entity by id,
 * in its path or body, gets the one the group's last create answered (so a get, update, export or delete
 * finds something); `userId` is the caller's own.
 */
const serveGroup = async (
  { bundle, postOffice }: BundleStack,
  group: RouteGroup,
  apiKeys: RunningBundle,
): Promise<Served[]> => {
  const caller = await signUpThroughBundle(bundle('auth'), postOffice(), group.name);
  const apiKey = await apiKeyThroughBundle(apiKeys, caller);
  const known: Record<string, string> = { userId: caller.userId };
  const served: Served[] = [];
  for (const [key, route] of probeOrder(group.routes)) {
    const body = bodyFor(group.name, key, route, known);
    const path = `${samplePath(route, known)}${sampleQuery(route)}`;
    const reply = await send(bundle(group.name), route.method, path, body, credentialsFor(route.auth, caller, apiKey));
    // Routes name an incident by its ticket id (INC-...), every other entity by its id.
    const id = reply.body?.data?.ticketId ?? reply.body?.data?.id;
    if (isCreate(route) && reply.status < 300 && typeof id === 'string') {
      for (const name of ENTITY_ID_NAMES) known[name] = id;
    }
    served.push({ route: `${route.method} ${route.path}`, status: reply.status, message: reply.body?.message });
  }
  return served;
};

const isFailure = ({ status }: Served): boolean => status >= 500;

/**
 * One request of each route of every group, two groups at a time: each signs up through the auth bundle,
 * whose password hashing is CPU-bound. Answers the 5xx of each group, keyed by the group and its bundle's
 * log, and how many requests were served.
 */
export const serveEveryGroup = async (
  stack: BundleStack,
  apiKeys: RunningBundle,
): Promise<{ failures: Record<string, Served[]>; requests: number }> => {
  const failures: Record<string, Served[]> = {};
  let requests = 0;
  const queue = [...ROUTE_GROUPS];
  const worker = async (): Promise<void> => {
    for (let group = queue.shift(); group; group = queue.shift()) {
      const served = await serveGroup(stack, group, apiKeys);
      requests += served.length;
      const failed = served.filter(isFailure);
      if (failed.length > 0) failures[`${group.name}\n${stack.bundle(group.name).output().slice(-4000)}`] = failed;
    }
  };
  await Promise.all([worker(), worker()]);
  return { failures, requests };
};
