import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { dashboardData, incidentAt, resolveAt } from './support.ts';

const WINDOW = { from: '2026-02-01', to: '2026-02-28' };

/**
 * What a dashboard request costs the table, counted at the SDK as the ingestion budget counts it: the
 * same commands whether the window holds one incident or many, since it reads hourly rollups.
 */
describe('store operations of a dashboard request', () => {
  let client: TestClient;
  let admin: SignedIn;
  const operations: string[] = [];

  const counted = async (route: 'metrics' | 'analytics') => {
    // The notification worker reads the workspace while it delivers the incidents' pages: not the dashboard's.
    await client.stack.deliveriesIdle();
    operations.length = 0;
    await dashboardData(client, admin.auth, route, WINDOW);
    return [...operations].sort();
  };

  beforeAll(async () => {
    client = await startTestStack();
    admin = await signUpBusiness(client);
    client.stack.ports.table.doc.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as {
          Key?: { pk?: string; sk?: string };
          ExpressionAttributeValues?: Record<string, unknown>;
        };
        const pk = String(input.Key?.pk ?? input.ExpressionAttributeValues?.[':pk'] ?? '');
        // The caller's account and the rate limiter's window are every route's, not the dashboard's.
        if (!pk.startsWith('WS#')) return next(args);
        const where = pk.replace(/^WS#[^#]+#?/, '') + (input.Key?.sk ? `/${input.Key.sk}` : '');
        operations.push(`${context.commandName} ${where}`);
        return next(args);
      },
      { step: 'initialize', name: 'dashboardOperations' },
    );
  });
  afterAll(() => client.stack.stop());

  it('reads the rollups and the pending signal hours for metrics, and at most four items for analytics', async () => {
    const one = await incidentAt(client, admin, '2026-02-02T10:00:00Z', { source: 'grafana' });
    await resolveAt(client, admin, '2026-02-02T11:00:00Z', one);
    const metricsWithOne = await counted('metrics');
    const analyticsWithOne = await counted('analytics');
    expect(metricsWithOne).toEqual(['GetItemCommand COUNTER/SIGNALS', 'QueryCommand METRIC']);
    expect(analyticsWithOne).toEqual([
      'GetItemCommand /IMS',
      'GetItemCommand /WORKSPACE',
      'QueryCommand MEMBER',
      'QueryCommand METRIC',
    ]);

    for (let day = 3; day <= 27; day += 1) {
      const id = await incidentAt(client, admin, `2026-02-${String(day).padStart(2, '0')}T0${day % 10}:15:00Z`, {
        source: `tool-${day % 4}`,
      });
      if (day % 2 === 0) await resolveAt(client, admin, `2026-02-${String(day).padStart(2, '0')}T12:00:00Z`, id);
    }
    expect((await dashboardData(client, admin.auth, 'metrics', WINDOW)).totalIncidents).toBe(26);
    expect(await counted('metrics')).toEqual(metricsWithOne);
    expect(await counted('analytics')).toEqual(analyticsWithOne);
  });
});
