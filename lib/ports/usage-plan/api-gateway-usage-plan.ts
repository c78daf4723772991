import {
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  DeleteUsagePlanKeyCommand,
  NotFoundException,
  UpdateApiKeyCommand,
  type APIGatewayClient,
} from '@aws-sdk/client-api-gateway';
import { log } from '#lib/log/logger.ts';
import { USAGE_PLAN_TAG, type UsagePlan } from './usage-plan.ts';

const ignoreNotFound = (error: unknown): void => {
  if (!(error instanceof NotFoundException)) throw error;
};

/**
 * The usage plan as API Gateway API keys: a gateway key named by our key id, holding the hash of the
 * key's secret, added to the plan `usagePlanId` names.
 */
export const createApiGatewayUsagePlan = (client: APIGatewayClient, usagePlanId: () => string): UsagePlan => {
  const remove = async (mirrorId: string): Promise<void> => {
    await client
      .send(new DeleteUsagePlanKeyCommand({ usagePlanId: usagePlanId(), keyId: mirrorId }))
      .catch(ignoreNotFound);
    await client.send(new DeleteApiKeyCommand({ apiKey: mirrorId })).catch(ignoreNotFound);
  };

  return {
    async register(key) {
      const planId = usagePlanId();
      const created = await client.send(
        new CreateApiKeyCommand({
          name: key.id,
          description: `incident-service API key ${key.id} of workspace ${key.workspaceId}`,
          value: key.value,
          enabled: key.enabled,
          tags: { [USAGE_PLAN_TAG]: planId },
        }),
      );
      if (!created.id) throw new Error(`API Gateway created no id for the mirror of API key ${key.id}`);
      try {
        await client.send(
          new CreateUsagePlanKeyCommand({ usagePlanId: planId, keyId: created.id, keyType: 'API_KEY' }),
        );
      } catch (error) {
        // A gateway key outside the plan is never throttled; take it away rather than leave it behind.
        await client.send(new DeleteApiKeyCommand({ apiKey: created.id })).catch((cleanup: unknown) => {
          log.warn('an API Gateway key outside the usage plan was left behind', {
            mirrorId: created.id,
            error: cleanup,
          });
        });
        throw error;
      }
      return created.id;
    },

    async setEnabled(mirrorId, enabled) {
      try {
        await client.send(
          new UpdateApiKeyCommand({
            apiKey: mirrorId,
            patchOperations: [{ op: 'replace', path: '/enabled', value: String(enabled) }],
          }),
        );
        return true;
      } catch (error) {
        ignoreNotFound(error);
        return false;
      }
    },

    remove,
  };
};
