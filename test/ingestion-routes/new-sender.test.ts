import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serviceOpenApiDocument } from '#infra/openapi/service-openapi.ts';
import { ingestion } from '#lib/routes/ingestion.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { exampleAlerts } from './new-sender/sender.ts';
import { INGESTION, SECRETS, createTenant, expectAccepted, listSignals, type Tenant } from './support.ts';

/**
 * The registry with one line more, as adding a sender's folder to it would be: nothing else changes, and the
 * sender gets its route, handler, OpenAPI operation and secret. This file replaces a module, so it runs with a
 * module graph of its own (test/setup/projects.ts).
 */
vi.mock('#lib/ingestion/senders/registry.ts', async (importOriginal) => {
  const { SENDERS } = await importOriginal<typeof import('#lib/ingestion/senders/registry.ts')>();
  const { exampleAlerts: added } = await import('./new-sender/sender.ts');
  return { SENDERS: [...SENDERS, added] };
});

const SECRET = 'the-example-routing-key';
const ROUTE = `${INGESTION}/example-alerts`;

const alert = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    event_action: 'trigger',
    dedup_key: 'disk-full',
    payload: { summary: 'Disk full on db-1', severity: 'critical' },
    ...fields,
  });

describe('a sender added from its folder alone', () => {
  let client: TestClient;
  let tenant: Tenant;

  const post = (raw: string) =>
    client.request('POST', ROUTE, raw, { 'content-type': 'application/json', ...tenant.keyHeaders });

  beforeAll(async () => {
    client = await startTestStack();
    tenant = await createTenant(client);
  });

  afterAll(() => client.stack.stop());

  it('has its route and OpenAPI operation', () => {
    expect((ingestion.routes as Record<string, unknown>).ingestExampleAlerts).toMatchObject({
      method: 'POST',
      path: ROUTE,
      auth: 'apiKey',
      scope: 'ingestion:write',
    });
    const operation = serviceOpenApiDocument().paths?.[ROUTE]?.post;
    expect(operation).toMatchObject({
      operationId: 'ingestion.ingestExampleAlerts',
      summary: exampleAlerts.route.summary,
    });
    expect(Object.keys((operation as { responses?: object } | undefined)?.responses ?? {})).toContain('202');
  });

  it('ingests its deliveries as signals from it', async () => {
    const data = expectAccepted(await post(alert()));
    expect(data.source).toBe('example-alerts');
    const stored = await listSignals(client, tenant.keyHeaders);
    expect(stored.find((signal) => signal.id === data.signalId)).toMatchObject({
      source: 'example-alerts',
      name: 'Disk full on db-1',
      severity: 'HIGH',
    });
    const invalid = await post(alert({ payload: {} }));
    expect(invalid.status, invalid.text).toBe(400);
  });

  it('takes a secret, and then checks the key in the body', async () => {
    const listed = await client.request('GET', SECRETS, undefined, tenant.admin.auth);
    expect(listed.body.data).toContainEqual(
      expect.objectContaining({ sender: 'example-alerts', signatureHeader: 'body.routing_key', configured: false }),
    );
    const set = await client.request('PUT', `${SECRETS}/example-alerts`, { secret: SECRET }, tenant.admin.auth);
    expect(set.status, set.text).toBe(200);

    const missing = await post(alert());
    expect(missing.status, missing.text).toBe(401);
    expect(missing.body.errors).toEqual(['body.routing_key: required, a secret is set for example-alerts']);
    const wrong = await post(alert({ routing_key: 'not-the-routing-key' }));
    expect(wrong.status, wrong.text).toBe(401);
    expect(wrong.body.message).toBe('Invalid webhook signature');

    const signed = exampleAlerts.signature.sign(alert({ dedup_key: 'disk-full-2' }), SECRET);
    expect(JSON.parse(signed.rawBody).routing_key).toBe(SECRET);
    expectAccepted(await post(signed.rawBody));
  });
});
