import { describe, expect, it } from 'vitest';
import { ROUTE_GROUPS, allRoutes } from '#lib/routes/index.ts';

/**
 * Counted from the Endpoints tables of spec/incident-service-api.md, plus what DECISIONS.md adds:
 * health 1 (DECISIONS); auth 10 rows holding 11 routes (the two OAuth registers share a row) + reset-password = 12;
 * API keys 6; incidents 16 + top-level generate-pdf = 17; code engine 3; problems 5; signals 8;
 * ingestion 9; playbooks 11 + 5 execution routes + patterns = 17; SLA policies 5; silent hours 4;
 * service map 9; blast radius 5; assistant 6; on-call 3; dashboard 2; pipelines 2; tickets 2;
 * business and IMS 8 + SSO settings GET/PUT (docs/security.md) = 10; integrations 16.
 * Added by the issues that built them: correlation rules 5 (docs/correlation.md), an incident's signals 1,
 * webhook signature secrets 3 (docs/ingestion.md), member role change and removal 2 (docs/decisions.md),
 * code engine settings GET/PUT 2 (docs/code-engine.md), disconnecting an integration and an incident's
 * notifications 2 (docs/integrations.md), the served OpenAPI document, its docs page and the page's script
 * and stylesheet 4 (docs/api-docs.md), an acknowledge link's page and its POST 2 (docs/escalation.md),
 * AWS's senders, CloudWatch alarms through SNS and EventBridge events, 2 (docs/ingestion.md), the pages of
 * the documentation the docs page links, in docs/ and docs/spec/, 2 (docs/api-docs.md), one analysis by its id,
 * which the console follows until it lands, 1 (docs/console.md), heartbeats 5 and their ping by GET and POST 2,
 * maintenance windows 5 (docs/heartbeats.md), signing out, 1 (docs/security.md), the PagerDuty- and
 * Opsgenie-compatible event APIs and the integration keys they take 8 (docs/ingestion.md, issue 45), schedules and
 * their calendar feed 11, escalation policies 5 and an incident's escalate-now 1 (docs/on-call.md), outside
 * addresses listed and confirmed (GET, and the link's GET and POST) 3 (docs/security.md), the workspace's name
 * and zone for the console 1 (docs/console.md), a member's push notifications: the VAPID key, subscribing and
 * unsubscribing a device 3 (docs/console.md, issue 46), a chat button's interaction and linking a chat user 2
 * (docs/integrations.md, issue 46).
 */
const SPEC_ROUTE_COUNT = 215;

const routes = allRoutes();

/** Path segments after `/api/v1`, joined into a tree, so siblings are the children of one node. */
const variableNamesBySiblings = (): Map<string, Set<string>> => {
  const names = new Map<string, Set<string>>();
  for (const { route } of routes) {
    const segments = route.path.split('/').filter(Boolean);
    segments.forEach((segment, index) => {
      if (!segment.startsWith(':')) return;
      const parent = `/${segments.slice(0, index).join('/')}`;
      names.set(parent, (names.get(parent) ?? new Set()).add(segment));
    });
  }
  return names;
};

describe('route table', () => {
  it('has the number of routes the spec lists', () => {
    expect(routes).toHaveLength(SPEC_ROUTE_COUNT);
  });

  it('starts every path with /api/v1', () => {
    const outside = routes.filter(({ route }) => route.path !== '/api/v1' && !route.path.startsWith('/api/v1/'));
    expect(outside).toEqual([]);
  });

  it('has no duplicate method and path', () => {
    const seen = routes.map(({ route }) => `${route.method} ${route.path}`);
    expect(seen.filter((entry, index) => seen.indexOf(entry) !== index)).toEqual([]);
  });

  it('gives sibling path parameters one name at every level, as API Gateway requires', () => {
    const conflicts = [...variableNamesBySiblings()].filter(([, names]) => names.size > 1);
    expect(conflicts).toEqual([]);
  });

  it('sets access on every route that requires credentials', () => {
    const missing = routes.filter(({ route }) => !['public', 'optionalBearer'].includes(route.auth) && !route.access);
    expect(missing.map(({ group, key }) => `${group}.${key}`)).toEqual([]);
  });

  it('gives every API-key-only route the ingestion:write scope', () => {
    const wrong = routes.filter(({ route }) => route.auth === 'apiKey' && route.scope !== 'ingestion:write');
    expect(wrong.map(({ group, key }) => `${group}.${key}`)).toEqual([]);
  });

  it('gives scopes only to routes an API key can call', () => {
    const keyless = routes.filter(({ route }) => !['bearerOrApiKey', 'apiKey'].includes(route.auth));
    expect(keyless.filter(({ route }) => route.scope).map(({ group, key }) => `${group}.${key}`)).toEqual([]);
  });

  it('has unique group names', () => {
    const names = ROUTE_GROUPS.map((group) => group.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
