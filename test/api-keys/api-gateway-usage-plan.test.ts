import { USAGE_PLAN_TAG } from '#lib/ports/usage-plan/usage-plan.ts';
import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  DeleteUsagePlanKeyCommand,
  NotFoundException,
  UpdateApiKeyCommand,
} from '@aws-sdk/client-api-gateway';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createApiGatewayUsagePlan } from '#lib/ports/usage-plan/api-gateway-usage-plan.ts';

const gateway = mockClient(APIGatewayClient);
const usagePlan = createApiGatewayUsagePlan(new APIGatewayClient({ region: 'eu-west-1' }), () => 'plan123');
const key = {
  id: '01JTESTKEY0000000000000000',
  workspaceId: 'ws-1',
  value: 'ims_ws-1.01JTESTKEY.secret',
  enabled: true,
};
const notFound = () => new NotFoundException({ message: 'Invalid API Key identifier specified', $metadata: {} });

afterEach(() => {
  gateway.reset();
});
// The unit project shares its workers' modules: a class-level mock left in place answers the next file's clients.
afterAll(() => {
  gateway.restore();
});

describe('the API Gateway usage plan', () => {
  it('registers a key as a gateway key named by our key id, holding its value and its plan tag, then adds it to the plan', async () => {
    gateway.on(CreateApiKeyCommand).resolves({ id: 'gw-1' });
    gateway.on(CreateUsagePlanKeyCommand).resolves({ id: 'gw-1' });

    await expect(usagePlan.register(key)).resolves.toBe('gw-1');

    expect(gateway.commandCalls(CreateApiKeyCommand).map((call) => call.args[0].input)).toEqual([
      {
        name: key.id,
        description: `incident-service API key ${key.id} of workspace ws-1`,
        value: key.value,
        enabled: true,
        // IAM lets the function change and delete only keys carrying its plan's tag (docs/decisions.md, issue 39).
        tags: { [USAGE_PLAN_TAG]: 'plan123' },
      },
    ]);
    expect(gateway.commandCalls(CreateUsagePlanKeyCommand).map((call) => call.args[0].input)).toEqual([
      { usagePlanId: 'plan123', keyId: 'gw-1', keyType: 'API_KEY' },
    ]);
  });

  it('deletes the gateway key again when it cannot be added to the plan, and reports the failure', async () => {
    gateway.on(CreateApiKeyCommand).resolves({ id: 'gw-2' });
    gateway.on(CreateUsagePlanKeyCommand).rejects(new Error('TooManyRequests'));
    gateway.on(DeleteApiKeyCommand).resolves({});

    await expect(usagePlan.register(key)).rejects.toThrow('TooManyRequests');
    expect(gateway.commandCalls(DeleteApiKeyCommand).map((call) => call.args[0].input)).toEqual([{ apiKey: 'gw-2' }]);
  });

  it('fails a registration the gateway gave no id, without touching the plan', async () => {
    gateway.on(CreateApiKeyCommand).resolves({});
    await expect(usagePlan.register(key)).rejects.toThrow(/no id/);
    expect(gateway.commandCalls(CreateUsagePlanKeyCommand)).toHaveLength(0);
  });

  it('enables and disables a gateway key with a patch of /enabled', async () => {
    gateway.on(UpdateApiKeyCommand).resolves({});

    await expect(usagePlan.setEnabled('gw-1', false)).resolves.toBe(true);
    await expect(usagePlan.setEnabled('gw-1', true)).resolves.toBe(true);

    expect(gateway.commandCalls(UpdateApiKeyCommand).map((call) => call.args[0].input)).toEqual([
      { apiKey: 'gw-1', patchOperations: [{ op: 'replace', path: '/enabled', value: 'false' }] },
      { apiKey: 'gw-1', patchOperations: [{ op: 'replace', path: '/enabled', value: 'true' }] },
    ]);
  });

  it('reports a missing gateway key on enable or disable, and passes other errors on', async () => {
    gateway.on(UpdateApiKeyCommand, { apiKey: 'gone' }).rejects(notFound());
    gateway.on(UpdateApiKeyCommand, { apiKey: 'busy' }).rejects(new Error('TooManyRequests'));

    await expect(usagePlan.setEnabled('gone', false)).resolves.toBe(false);
    await expect(usagePlan.setEnabled('busy', false)).rejects.toThrow('TooManyRequests');
  });

  it('removes a key from the plan, then deletes the gateway key', async () => {
    gateway.on(DeleteUsagePlanKeyCommand).resolves({});
    gateway.on(DeleteApiKeyCommand).resolves({});

    await usagePlan.remove('gw-1');

    expect(gateway.calls().map((call) => [call.args[0].constructor.name, call.args[0].input])).toEqual([
      ['DeleteUsagePlanKeyCommand', { usagePlanId: 'plan123', keyId: 'gw-1' }],
      ['DeleteApiKeyCommand', { apiKey: 'gw-1' }],
    ]);
  });

  it('treats a key already gone from the plan or the gateway as removed', async () => {
    gateway.on(DeleteUsagePlanKeyCommand).rejects(notFound());
    gateway.on(DeleteApiKeyCommand).rejects(notFound());
    await expect(usagePlan.remove('gw-1')).resolves.toBeUndefined();

    gateway.reset();
    gateway.on(DeleteUsagePlanKeyCommand).resolves({});
    gateway.on(DeleteApiKeyCommand).rejects(new Error('AccessDenied'));
    await expect(usagePlan.remove('gw-1')).rejects.toThrow('AccessDenied');
  });
});
