import { ACCOUNT_REQUESTS } from './account-requests.ts';
import { CODE_ENGINE_REQUESTS } from './code-engine-requests.ts';
import { INCIDENT_REQUESTS } from './incident-requests.ts';
import { INTEGRATION_REQUESTS } from './integration-requests.ts';
import { ON_CALL_REQUESTS } from './on-call-requests.ts';
import { PUSH_REQUESTS } from './push-requests.ts';
import type { RouteRequests } from './request-helpers.ts';
import { SIGNAL_REQUESTS } from './signal-requests.ts';

/**
 * `<group>.<route key>` of every built route: the request that exercises it, and through it the function's grants.
 * The least-privilege run takes them in the route table's order, so a request may use the ids an earlier
 * route's request kept (`ids`), whichever of these modules holds it.
 */
export const ROUTE_REQUESTS: Record<string, RouteRequests> = {
  ...ACCOUNT_REQUESTS,
  ...INCIDENT_REQUESTS,
  ...SIGNAL_REQUESTS,
  ...ON_CALL_REQUESTS,
  ...CODE_ENGINE_REQUESTS,
  ...INTEGRATION_REQUESTS,
  ...PUSH_REQUESTS,
};
