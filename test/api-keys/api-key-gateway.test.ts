import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as authorizer } from '#functions/api-key-authorizer/index.ts';
import { vouchedKeyOf } from '#lib/api-keys/api-key-gate.ts';
import { hashApiKeySecret, parseApiKey } from '#lib/api-keys/api-key.ts';
import type { Clock } from '#lib/ports/clock.ts';
import { apiKeyHeaders, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

/** The spec's limits, the API-key one (100 a minute) included. */
const SPEC_LIMITS = 'global=100000/1m,login=10000/1m,email=10000/1m';
const SIGNALS = '/api/v1/signals';

const authorizerEvent = (headers: Record<string, string>, query: Record<string, string> = {}) =>
  ({
    type: 'REQUEST',
    methodArn: 'arn:aws:execute-api:eu-west-1:123456789012:api/dev/GET/api/v1/signals',
    headers,
    queryStringParameters: query,
  }) as unknown as APIGatewayRequestAuthorizerEvent;

describe('API keys at the gateway', () => {
  let client: TestClient;
  let admin: SignedIn;
  let key: string;
  // The stack's clock, behind the system's by `lag`: a test sets it to start a clock minute where it needs one.
  let lag = 0;
  const clock: Clock = { now: () => new Date(Date.now() - lag) };
  beforeAll(async () => {
    client = await startTestStack(':memory:', SPEC_LIMITS, { clock });
    admin = await signUpBusiness(client);
    key = (await apiKeyHeaders(client, admin, ['incidents:read', 'ingestion:write']))['x-api-key'] as string;
  });
  afterAll(() => client.stack.stop());

  it('refuses the 101st request of a key within a minute with 429 and Retry-After', async () => {
    const fresh = await apiKeyHeaders(client, admin, ['incidents:read']);
    // The window is a clock minute: the stack's clock starts one now, so 101 requests cannot straddle two.
    lag = Date.now() % 60_000;
    const statuses: number[] = [];
    for (let index = 0; index < 100; index += 1) {
      statuses.push((await client.request('GET', `${SIGNALS}?limit=1`, undefined, fresh)).status);
    }
    expect(statuses.every((status) => status === 200)).toBe(true);
    const refused = await client.request('GET', SIGNALS, undefined, fresh);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, message: 'Too many requests, please try again later', errors: [] });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-limit')).toBe('100');
    // Another key, and Bearer callers, have their own budgets.
    expect((await client.request('GET', SIGNALS, undefined, { 'x-api-key': key })).status).toBe(200);
    expect((await client.request('GET', SIGNALS, undefined, admin.auth)).status).toBe(200);
  });

  it('names the key by the hash of its secret in every form, and vouches for its workspace and scopes', async () => {
    const parsed = parseApiKey(key);
    for (const event of [
      authorizerEvent({ 'X-API-Key': key }),
      authorizerEvent({}, { apiKey: key }),
      authorizerEvent({ Authorization: `ApiKey ${key}` }),
    ]) {
      const verdict = await authorizer(event);
      expect(verdict.usageIdentifierKey).toBe(hashApiKeySecret(parsed?.secret ?? ''));
      expect(verdict.policyDocument.Statement).toEqual([
        { Action: 'execute-api:Invoke', Effect: 'Allow', Resource: event.methodArn },
      ]);
      expect(verdict.context).toMatchObject({
        workspaceId: admin.user.businessId,
        keyId: parsed?.keyId,
        scopes: 'incidents:read ingestion:write',
      });
    }
  });

  it('counts Bearer callers and keys it cannot vouch for under the shared unkeyed key, leaving the 401 to the function', async () => {
    const unkeyed = client.stack.ports.unkeyedUsageKey;
    for (const event of [
      authorizerEvent(admin.auth),
      authorizerEvent({}),
      authorizerEvent({ 'x-api-key': `${key.slice(0, -4)}AAAA` }),
      authorizerEvent({ 'x-api-key': 'not-a-key' }),
    ]) {
      const verdict = await authorizer(event);
      expect(verdict.usageIdentifierKey).toBe(unkeyed);
      expect(verdict.context).toBeUndefined();
    }
    const tampered = await client.request('GET', SIGNALS, undefined, { 'x-api-key': `${key.slice(0, -4)}AAAA` });
    expect(tampered.status).toBe(401);
  });

  it('lets the function trust a context only for the very secret the request presents', async () => {
    const verdict = await authorizer(authorizerEvent({ 'x-api-key': key }));
    expect(vouchedKeyOf(verdict.context, key)).toMatchObject({ workspaceId: admin.user.businessId });
    const other = (await apiKeyHeaders(client, admin, ['incidents:read']))['x-api-key'] as string;
    expect(vouchedKeyOf(verdict.context, other)).toBeUndefined();
    expect(vouchedKeyOf({ ...verdict.context, keyHash: 'f'.repeat(64) }, key)).toBeUndefined();
    expect(vouchedKeyOf(null, key)).toBeUndefined();
  });

  it('refuses a revoked key at the gateway on the very next request, though the authorizer had just vouched for it', async () => {
    const fresh = (await apiKeyHeaders(client, admin, ['incidents:read']))['x-api-key'] as string;
    expect((await client.request('GET', SIGNALS, undefined, { 'x-api-key': fresh })).status).toBe(200);
    const { keyId } = parseApiKey(fresh) ?? {};
    await client.request('POST', `/api/v1/apikey/${keyId}/revoke`, undefined, admin.auth);
    const refused = await client.request('GET', SIGNALS, undefined, { 'x-api-key': fresh });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ success: false, message: 'Invalid API key', errors: [] });
  });
});
