import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

const APP = 'https://app.acme.test';

describe('a request no route takes', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await startTestStack(':memory:', undefined, { allowedOrigins: APP });
  });
  afterAll(() => client.stack.stop());

  it("answers a wrong method on a known path with 405 and the path's methods in Allow, in the envelope", async () => {
    const reply = await client.request('DELETE', '/api/v1/health', undefined, { origin: APP });
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('GET');
    expect(reply.body).toEqual({
      success: false,
      message: 'Method DELETE not allowed on /api/v1/health; it accepts GET',
      errors: [],
    });
    // A browser on an allowed origin can read why.
    expect(reply.headers.get('access-control-allow-origin')).toBe(APP);
    expect(reply.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('lists every method of a path with several, as the route table has them', async () => {
    const reply = await client.request('PATCH', '/api/v1/incident-ticket/INC-1');
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')?.split(', ').sort()).toEqual(['DELETE', 'GET', 'PUT']);
  });

  it('keeps answering preflights for the methods a path has', async () => {
    const reply = await client.request('OPTIONS', '/api/v1/health', undefined, {
      origin: APP,
      'access-control-request-method': 'GET',
    });
    expect(reply.status).toBe(204);
    expect(reply.headers.get('access-control-allow-methods')).toBe('GET,OPTIONS');
  });

  it.each([
    // A sender named by its product: Alertmanager posts to the metrics-alerting route.
    ['POST', '/api/v1/ingestion/alertmanager', 'POST /api/v1/ingestion/metrics-alerts'],
    ['GET', '/api/v1/incident-tickets', 'GET /api/v1/incident-ticket'],
    ['GET', '/api/v1/incidnt-ticket/INC-1', 'GET /api/v1/incident-ticket/{id}'],
    ['POST', '/ingestion/metrics-alerts', 'POST /api/v1/ingestion/metrics-alerts'],
    ['GET', '/api/v2/signals', 'GET /api/v1/signals'],
    ['GET', '/api/v1/healthz', 'GET /api/v1/health'],
  ])('answers %s %s with 404 naming %s', async (method, path, meant) => {
    const reply = await client.request(method, path, method === 'POST' ? {} : undefined);
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({
      success: false,
      message: `Route not found: ${method} ${path}; did you mean ${meant}?`,
      errors: [],
    });
  });

  it('names no route when none is near', async () => {
    const reply = await client.request('GET', '/api/v1/weather/today/hourly/celsius/berlin');
    expect(reply.status).toBe(404);
    expect(reply.body.message).toBe('Route not found: GET /api/v1/weather/today/hourly/celsius/berlin');
  });
});
