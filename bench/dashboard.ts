import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemScope, type Scope } from '#lib/identity/scope.ts';
import { createIncident } from '#lib/incidents/create-incident.ts';
import { INCIDENT_PRIORITIES } from '#lib/incidents/incident.ts';
import { resolveIncident } from '#lib/incidents/resolve-incident.ts';
import { createIncidentBody } from '#lib/incidents/schemas.ts';
import { rollUpIngestedHours } from '#lib/signals/ingested-rollup.ts';
import { ingestedDelta } from '#lib/signals/signal-counter.ts';
import { signalCounterRepository } from '#lib/signals/signal-counter-repository.ts';
import { sumCounts } from '#lib/store/counters.ts';
import { BENCH_ADMIN, signUpBenchAdmin, startBenchService } from './bench-service.ts';
import { runConcurrently } from './load.ts';
import { countOperations } from './store-operations.ts';

/**
 * `npx tsx bench/dashboard.ts`: the dashboard on a workspace of 10,000 incidents and 100,000 signals of
 * the last 30 days (docs/performance.md, "Dashboard"). Incidents go through the services' own write
 * paths (create, then resolve for two in three), each at its own instant, so the rollups are what those
 * writes keep. Signals go through the counter write ingestion makes, summed per hour as coalesced
 * additions are, then the sweep's roll-up: the dashboard reads only those rollups, never the signals.
 * BENCH_SCALE=0.1 seeds a tenth.
 */
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const INCIDENTS = Math.round(10_000 * SCALE);
const SIGNALS = Math.round(100_000 * SCALE);
const REQUESTS = 200;
const DAY_MS = 24 * 3600_000;
process.env.LOG_LEVEL ??= 'silent';

const work = await mkdtemp(join(tmpdir(), 'dashboard-bench-'));
const { stack, call } = await startBenchService(work);
const { user } = await signUpBenchAdmin(call);
const { email, password } = BENCH_ADMIN;
const workspaceId = user.businessId as string;

const now = Date.now();
/** The n-th of `count` instants spread over the 30 days before now. */
const spread = (n: number, count: number): number => now - 30 * DAY_MS + Math.floor(((n + 0.5) * 30 * DAY_MS) / count);
const scopeAt = (instant: number, actor: string): Scope => {
  const scope = systemScope(workspaceId, { ...stack.ports, clock: { now: () => new Date(instant) } });
  return { ...scope, actor };
};
const RESOLVERS = [email, 'api-key:ci', 'system'];

const seeding = performance.now();
await runConcurrently(INCIDENTS, 16, async (n) => {
  const createdAt = spread(n, INCIDENTS);
  const incident = await createIncident(
    scopeAt(createdAt, email),
    createIncidentBody.parse({
      summary: `bench incident ${n}`,
      priority: INCIDENT_PRIORITIES[n % INCIDENT_PRIORITIES.length],
      source: `tool-${n % 8}`,
    }),
  );
  if (n % 3 !== 0) {
    await resolveIncident(scopeAt(createdAt + (n % 240) * 60_000, RESOLVERS[n % RESOLVERS.length] ?? email), {
      id: incident.id,
    });
  }
});
const hourly = sumCounts(Array.from({ length: SIGNALS }, (_, n) => ingestedDelta(new Date(spread(n, SIGNALS)))));
for (const [name, count] of Object.entries(hourly)) {
  await signalCounterRepository(stack.ports.table, workspaceId).addToSignalCounter({ [name]: count });
}
const rolledUp = await rollUpIngestedHours(systemScope(workspaceId, stack.ports), new Date(now));
const seconds = ((performance.now() - seeding) / 1000).toFixed(0);
console.log(`seeded ${INCIDENTS} incidents and ${SIGNALS} signals (${rolledUp} rolled up) in ${seconds} s`);

// Seeding outlasts an access token (15 minutes): sign in for the measured requests.
const { accessToken } = await call('POST', '/api/v1/auth/login', { email, password });
const auth = { authorization: `Bearer ${accessToken}` };
const operations = await countOperations(stack.ports.table);
for (const route of ['metrics', 'analytics', 'analytics?granularity=hour']) {
  const path = `/api/v1/dashboard/${route}`;
  const data = await call('GET', path, undefined, auth);
  const counted = await operations.per(REQUESTS, () => call('GET', path, undefined, auth), stack.deliveriesIdle);
  const rate = await runConcurrently(REQUESTS, 1, () => call('GET', path, undefined, auth));
  const figures =
    route === 'metrics'
      ? { totalIncidents: data.totalIncidents, signalsIngested: data.signalsIngested }
      : { points: data.incidentTrend.length };
  console.log(JSON.stringify({ path, p50ms: rate.p50ms, p99ms: rate.p99ms, ...counted, ...figures }));
}

operations.close();
await stack.stop();
await rm(work, { recursive: true, force: true });
