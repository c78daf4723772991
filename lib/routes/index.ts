import type { RouteSpec } from '#lib/http/route.ts';
import { toGatewayPath } from '#lib/http/route-matcher.ts';
import type { KnownRoute } from '#lib/http/route-miss.ts';
import { consolePaths } from '#lib/console-site/console-site.ts';
import { apiKeys } from './api-keys.ts';
import { assistant } from './assistant.ts';
import { auth } from './auth.ts';
import { blastRadius } from './blast-radius.ts';
import { business } from './business.ts';
import { codeEngine } from './code-engine.ts';
import { correlationRules } from './correlation-rules.ts';
import { dashboard } from './dashboard.ts';
import { docs } from './docs.ts';
import { health } from './health.ts';
import { heartbeatPing } from './heartbeat-ping.ts';
import { heartbeats } from './heartbeats.ts';
import { incidents } from './incidents.ts';
import { ingestion } from './ingestion.ts';
import { integrations } from './integrations.ts';
import { maintenanceWindows } from './maintenance-windows.ts';
import { onCall } from './on-call.ts';
import { pipelines } from './pipelines.ts';
import { playbooks } from './playbooks.ts';
import { problems } from './problems.ts';
import { schedules } from './schedules.ts';
import { serviceMap } from './service-map.ts';
import { signals } from './signals.ts';
import { silentHours } from './silent-hours.ts';
import { slaPolicies } from './sla-policies.ts';
import { tickets } from './tickets.ts';

/** Every endpoint group of the API: one Lambda each, and the single source of the OpenAPI document. */
export const ROUTE_GROUPS = [
  health,
  docs,
  auth,
  apiKeys,
  incidents,
  codeEngine,
  problems,
  signals,
  correlationRules,
  ingestion,
  playbooks,
  slaPolicies,
  silentHours,
  heartbeats,
  heartbeatPing,
  maintenanceWindows,
  serviceMap,
  blastRadius,
  assistant,
  onCall,
  schedules,
  dashboard,
  pipelines,
  tickets,
  business,
  integrations,
] as const;

export interface RouteEntry {
  group: string;
  key: string;
  route: RouteSpec;
}

export const allRoutes = (): RouteEntry[] =>
  ROUTE_GROUPS.flatMap((group) =>
    Object.entries(group.routes).map(([key, route]): RouteEntry => ({ group: group.name, key, route })),
  );

/**
 * Each route's group, method and path in API Gateway's form, and the console's pages and files (GET only):
 * all the route-miss function needs to know, so `POST /sign-in` is a 405 with `Allow: GET`, not a 404.
 */
export const knownRoutes = (): KnownRoute[] => [
  ...allRoutes().map(({ group, route }) => ({
    group,
    route: { method: route.method, path: toGatewayPath(route.path) },
  })),
  ...consolePaths().map((path) => ({ group: 'console', route: { method: 'GET', path } })),
];
