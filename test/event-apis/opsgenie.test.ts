import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSignal } from '../correlation/support.ts';
import { createTenant, type Tenant } from '../ingestion-routes/support.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { createIntegrationKey, fixtureOf, postEvent } from './support.ts';

const ALERTS = '/api/v1/opsgenie/v2/alerts';
const FOLDER = 'opsgenie';

describe('Opsgenie Alert API (POST /api/v1/opsgenie/v2/alerts)', () => {
  let client: TestClient;
  let tenant: Tenant;
  let genie: Record<string, string>;

  beforeAll(async () => {
    client = await startTestStack();
    tenant = await createTenant(client, 'Genie Leavers');
    genie = { authorization: `GenieKey ${await createIntegrationKey(client, tenant, 'checkout')}` };
  });
  afterAll(() => client.stack.stop());

  const alertsOf = async (): Promise<Record<string, any>[]> => {
    const listed = await client.request('GET', '/api/v1/signals?limit=100', undefined, tenant.admin.auth);
    return (listed.body.data as Record<string, any>[]).filter((signal) => signal.source === 'opsgenie');
  };

  it('creates an alert from Alertmanager opsgenie_configs and closes it by alias', async () => {
    const create = fixtureOf(FOLDER, 'alertmanager-0.25-opsgenie-create.json');
    const created = await postEvent(client, ALERTS, create, genie);
    expect(created.status, created.text).toBe(202);
    expect(created.body).toEqual({
      result: 'Request will be processed',
      took: expect.any(Number),
      requestId: expect.any(String),
    });
    expect((await postEvent(client, ALERTS, create, genie)).status).toBe(202);
    const [alert] = await alertsOf();
    const stored = await getSignal(client, tenant.admin.auth, alert?.id);
    expect(stored).toMatchObject({ name: create.message, severity: 'HIGH', serviceId: 'checkout-api', occurrences: 2 });
    expect(stored.metadata).toMatchObject({ alias: create.alias, tags: create.tags, details: create.details });

    const acknowledged = await postEvent(
      client,
      `${ALERTS}/${create.alias}/acknowledge?identifierType=alias`,
      fixtureOf(FOLDER, 'alertmanager-0.25-opsgenie-close.json'),
      genie,
    );
    expect(acknowledged.status, acknowledged.text).toBe(202);
    expect(await getSignal(client, tenant.admin.auth, alert?.id)).toMatchObject({
      status: 'ACKNOWLEDGED',
      occurrences: 2,
    });
    const closed = await postEvent(
      client,
      `${ALERTS}/${create.alias}/close?identifierType=alias`,
      fixtureOf(FOLDER, 'alertmanager-0.25-opsgenie-close.json'),
      genie,
    );
    expect(closed.status, closed.text).toBe(202);
    expect(closed.body.result).toBe('Request will be processed');
    expect((await getSignal(client, tenant.admin.auth, alert?.id)).status).toBe('RESOLVED');
  });

  it('answers 422 for an alert without a message, 401 without a GenieKey', async () => {
    const empty = await postEvent(client, ALERTS, { alias: 'x' }, genie);
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.errors)).toContain('message');
    expect((await postEvent(client, ALERTS, { message: 'Disk full' })).status).toBe(401);
  });
});
